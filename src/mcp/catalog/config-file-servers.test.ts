import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigFileStore } from '../../config/file-store.js';
import { loadConfig } from '../../config/load.js';
import { ConfigFileServers } from './config-file-servers.js';

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function tempStore(): ConfigFileStore {
  const folder = mkdtempSync(join(tmpdir(), 'pilothouse-mcp-config-'));
  folders.push(folder);
  return new ConfigFileStore(join(folder, 'config.yaml'));
}

describe('ConfigFileServers', () => {
  it('adds, toggles and removes mcp.servers entries that the config loader reads back', () => {
    const store = tempStore();
    store.update((document) => void (document.llm = { provider: 'ollama' }));
    const servers = new ConfigFileServers(store);
    servers.add({ name: 'files', command: 'npx', args: ['-y', 'server'], enabled: true, env: { TOKEN: 'x' } });
    servers.add({ name: 'other', command: 'other', args: [], enabled: true, env: {} });
    servers.setEnabled('files', false);
    servers.remove('other');
    const config = loadConfig(store.path);
    expect(config.mcp.servers).toEqual([{ name: 'files', command: 'npx', args: ['-y', 'server'], enabled: false, env: { TOKEN: 'x' } }]);
    expect(config.llm.provider).toBe('ollama');
  });
});
