import { z } from 'zod';
import { conditionSchema, objectSchema, type CustomKind } from './common.js';

export const mcpServerKind: CustomKind = { kind: 'MCPServer', plural: 'mcpservers', namespaced: true };

export const mcpServerSpecSchema = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  enabled: z.boolean().default(true),
  description: z.string().optional(),
  env: z.record(z.string(), z.string()).default({}),
});

export const mcpServerStatusSchema = z.object({
  phase: z.enum(['connected', 'connecting', 'failed', 'disabled']).optional(),
  tools: z.array(z.string()).optional(),
  message: z.string().optional(),
  lastConnected: z.string().optional(),
  restarts: z.number().int().optional(),
  conditions: z.array(conditionSchema).optional(),
});

export const mcpServerSchema = objectSchema(mcpServerSpecSchema, mcpServerStatusSchema);
export type McpServerObject = z.infer<typeof mcpServerSchema>;
