/** One MCP server as `GET /api/mcp/servers` shows it (env values masked). */
export interface McpServer {
  name: string;
  command: string;
  args: string[];
  enabled: boolean;
  description?: string;
  env: Record<string, string>;
  source: 'config' | 'cluster';
  status: { phase: string; tools: string[]; restarts: number; message?: string; lastConnected?: string };
  tools: string[];
}

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
export function bodyOf(draft: McpDraft): { command: string; args: string[]; description?: string; env: Record<string, string>; enabled: boolean } {
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
