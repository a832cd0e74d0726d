import type { McpServerObject } from '../../crds/mcp-server.js';
import type { ServerDefinition, ServerSource, ServerStatus, ServerView } from '../client/server-definition.js';

/** The value shown instead of an env value. */
export const maskedValue = '********';

/** One server as the API shows it: configuration (env values masked), source, live status, tool names. */
export interface ServerRecord {
  name: string;
  command: string;
  args: string[];
  enabled: boolean;
  description?: string;
  env: Record<string, string>;
  source: ServerSource;
  status: ServerStatus;
  tools: string[];
}

function masked(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(env).map((key) => [key, maskedValue]));
}

function record(definition: Omit<ServerDefinition, 'source'>, source: ServerSource, status: ServerStatus): ServerRecord {
  const shown: ServerRecord = {
    name: definition.name,
    command: definition.command,
    args: definition.args,
    enabled: definition.enabled,
    env: masked(definition.env),
    source,
    status,
    tools: status.tools,
  };
  if (definition.description !== undefined) shown.description = definition.description;
  return shown;
}

/** A server the client manager runs. */
export function recordOfView(view: ServerView): ServerRecord {
  return record(view.definition, view.definition.source, view.status);
}

/** An MCPServer object the manager does not run (not yet reconciled, or its name clashes): its written status. */
export function recordOfObject(object: McpServerObject): ServerRecord {
  const written = object.status ?? {};
  const status: ServerStatus = {
    phase: written.phase ?? (object.spec.enabled ? 'connecting' : 'disabled'),
    tools: written.tools ?? [],
    restarts: written.restarts ?? 0,
  };
  if (written.message) status.message = written.message;
  if (written.lastConnected) status.lastConnected = written.lastConnected;
  return record({ name: object.metadata.name, ...object.spec }, 'cluster', status);
}
