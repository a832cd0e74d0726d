import { fileURLToPath } from 'node:url';
import type { ServerDefinition } from './server-definition.js';

/** Repository root, for the real third-party servers installed as dev dependencies. */
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** `@modelcontextprotocol/server-everything` over stdio. */
export function everythingServer(name = 'everything', extra: Partial<ServerDefinition> = {}): ServerDefinition {
  return {
    name,
    command: process.execPath,
    args: [`${root}node_modules/@modelcontextprotocol/server-everything/dist/index.js`, 'stdio'],
    enabled: true,
    env: {},
    source: 'config',
    ...extra,
  };
}

/** test/fixtures/mcp/crash-server.mjs: tools `crash`, `pid`, `slow`. */
export function crashServer(name = 'crashy', extra: Partial<ServerDefinition> = {}): ServerDefinition {
  return { name, command: process.execPath, args: [`${root}test/fixtures/mcp/crash-server.mjs`], enabled: true, env: {}, source: 'config', ...extra };
}

/** The kubernetes-mcp-server binary from the npm package. */
export const kubernetesMcpServerPath = `${root}node_modules/kubernetes-mcp-server-linux-amd64/bin/kubernetes-mcp-server-linux-amd64`;
