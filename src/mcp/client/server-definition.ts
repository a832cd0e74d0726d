import { z } from 'zod';
import { mcpServerConfigSchema } from '../../config/schema.js';

/** Where a server definition comes from: the config file key `mcp.servers` or an MCPServer object. */
export const serverSources = ['config', 'cluster'] as const;
export type ServerSource = (typeof serverSources)[number];

/** One external tool server as the client manager sees it (the contract's MCP server configuration + source). */
export const serverDefinitionSchema = mcpServerConfigSchema.extend({ source: z.enum(serverSources) });
export type ServerDefinition = z.infer<typeof serverDefinitionSchema>;

/** Live state of a server; the same shape is written to the MCPServer object's status. */
export interface ServerStatus {
  phase: 'connected' | 'connecting' | 'failed' | 'disabled';
  /** Registry names of the tools the server contributes while connected. */
  tools: string[];
  message?: string;
  /** ISO 8601 UTC time of the last successful handshake. */
  lastConnected?: string;
  /** How many times the child was started again after a failure. */
  restarts: number;
}

/** A definition with its live status. */
export interface ServerView {
  definition: ServerDefinition;
  status: ServerStatus;
}

/** Whether two definitions spawn the same child (a change of these fields means a restart). */
export function sameLaunch(left: ServerDefinition, right: ServerDefinition): boolean {
  return (
    left.command === right.command &&
    JSON.stringify(left.args) === JSON.stringify(right.args) &&
    JSON.stringify(Object.entries(left.env).sort()) === JSON.stringify(Object.entries(right.env).sort())
  );
}
