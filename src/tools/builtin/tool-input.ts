import { z } from 'zod';
import type { JsonObjectSchema, ToolResult } from '../types.js';

/**
 * The `cluster` argument of the tools that reach a cluster (kubectl, bash; ADR 0035): the agent loop (and MCP
 * server mode) opens the call's policy proxy on that cluster. The tools themselves never read it.
 */
export const clusterArgument = z
  .string()
  .max(63)
  .optional()
  .describe("The cluster to run against, by name (the clusters are listed in the system prompt); default: the chat's cluster");

/** The JSON schema the model sees, generated from the zod input schema. */
export function inputSchemaOf(schema: z.ZodObject): JsonObjectSchema {
  const jsonSchema = { ...(z.toJSONSchema(schema) as JsonObjectSchema) };
  delete jsonSchema.$schema;
  return { ...jsonSchema, type: 'object' };
}

/** Validates tool arguments; a failure is a result the model can read. */
export function parseInput<Schema extends z.ZodObject>(
  schema: Schema,
  args: Record<string, unknown>,
): { ok: true; value: z.infer<Schema> } | { ok: false; result: ToolResult } {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, result: errorResult(`invalid arguments: ${z.prettifyError(parsed.error)}`) };
}

/** A failed tool result. */
export function errorResult(output: string): ToolResult {
  return { output, isError: true };
}
