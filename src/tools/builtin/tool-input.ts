import { z } from 'zod';
import type { JsonObjectSchema, ToolResult } from '../types.js';

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
