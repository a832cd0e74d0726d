import { describe, expect, it } from 'vitest';
import { bodyOf, draftOf, type McpServer } from './mcp-types';

describe('MCP server form', () => {
  it('turns lines into args and KEY=value env, and back', () => {
    const body = bodyOf({ name: 'fs', command: ' npx ', args: '-y\n@scope/server\n\n', description: '', env: 'TOKEN=a=b\nbad line', enabled: true });
    expect(body).toEqual({ command: 'npx', args: ['-y', '@scope/server'], env: { TOKEN: 'a=b' }, enabled: true });
    const server: McpServer = {
      name: 'fs',
      command: 'npx',
      args: ['-y', 'x'],
      enabled: false,
      env: { TOKEN: '********' },
      source: 'config',
      status: { phase: 'disabled', tools: [], restarts: 0 },
      tools: [],
    };
    expect(draftOf(server)).toEqual({ name: 'fs', command: 'npx', args: '-y\nx', description: '', env: 'TOKEN=********', enabled: false });
  });
});
