import type { components, operations } from '@pilothouse/wire/types';

/** One MCP server as `GET /api/mcp/servers` shows it (env values masked). */
export type McpServer = components['schemas']['McpServer'];

/** The body of `PUT /api/mcp/servers/{name}` (a server's whole configuration but its name). */
export type McpServerBody = operations['putApiMcpServersName']['requestBody']['content']['application/json'];

/** What the add/edit form edits. */
export interface McpDraft {
  name: string;
  command: string;
  args: string;
  description: string;
  env: string;
  enabled: boolean;
}

export const emptyDraft: McpDraft = { name: '', command: '', args: '', description: '', env: '', enabled: true };

export function draftOf(server: McpServer): McpDraft {
  return {
    name: server.name,
    command: server.command,
    args: server.args.join('\n'),
    description: server.description ?? '',
    env: Object.entries(server.env)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
    enabled: server.enabled,
  };
}

/** The request body of a draft: one argument per line, `KEY=value` env lines. */
export function bodyOf(draft: McpDraft): McpServerBody {
  const lines = (text: string): string[] =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  const env = Object.fromEntries(
    lines(draft.env)
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1)]),
  );
  return {
    command: draft.command.trim(),
    args: lines(draft.args),
    ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
    env,
    enabled: draft.enabled,
  };
}
