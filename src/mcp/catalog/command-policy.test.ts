import { describe, expect, it } from 'vitest';
import { commandRefusal } from './command-policy.js';

const policy = { commands: ['npx', 'uvx', 'node', 'python3'], directories: ['/opt/mcp'] };

describe('MCPServer command policy', () => {
  it('allows listed names and absolute paths under the allowed folders', () => {
    expect(commandRefusal('npx', policy)).toBeUndefined();
    expect(commandRefusal('/opt/mcp/bin/server', policy)).toBeUndefined();
  });

  it('refuses other names, relative paths and paths that leave the folders', () => {
    expect(commandRefusal('bash', policy)).toContain('mcp.allowed_commands');
    expect(commandRefusal('./npx', policy)).toContain('relative path');
    expect(commandRefusal('/bin/sh', policy)).toContain('mcp.allowed_command_dirs');
    expect(commandRefusal('/opt/mcp/../../bin/sh', policy)).toContain('mcp.allowed_command_dirs');
    expect(commandRefusal('/opt/mcpx/server', policy)).toContain('mcp.allowed_command_dirs');
  });
});
