import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/audit/audit-log.js';
import { openDatabase } from '../../../src/store/database.js';
import { clusterKubeconfig } from '../../helpers/cluster.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { serverModeFiles, startHttpServerMode } from './mcp-server-process.js';

const plainToken = 'static-token-for-mcp-http-0001';
const hashedToken = 'hashed-token-for-mcp-http-0002';
const files = serverModeFiles({
  mcp_server: {
    tokens: [
      { name: 'ci', token: plainToken },
      { name: 'hashed', sha256: createHash('sha256').update(hashedToken).digest('hex') },
    ],
    allowed_hosts: ['mcp.internal.example:8443'],
    allowed_origins: ['https://tools.example'],
  },
});
let child: ChildProcess | undefined;
let url: URL;
let web: TestService;

/** A real SDK client over Streamable HTTP with `headers` on every request. */
async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'pilothouse-access-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** The status of an `initialize` POST carrying `headers` (node:http, so Host can be set). */
function initializeStatus(headers: Record<string, string>): Promise<{ status: number; authenticate?: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: url.host, ...headers },
      },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, authenticate: response.headers['www-authenticate'] });
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

beforeAll(async () => {
  // A Pilothouse on the same data dir issues the session tokens (same SQLite store and signing key).
  web = await startTestService({ dataDir: files.dataDir });
  const started = await startHttpServerMode(files.args(clusterKubeconfig(), ['--mcp-transport', 'http', '--port', '0']));
  child = started.child;
  url = new URL(started.url);
}, 120_000);

afterAll(async () => {
  child?.removeAllListeners('exit');
  child?.kill('SIGTERM');
  await web?.close();
  files.remove();
});

describe('MCP server mode over HTTP: who may call', () => {
  it('binds to loopback by default', () => {
    expect(url.hostname).toBe('127.0.0.1');
  });

  it('refuses requests without a valid bearer token (401 with WWW-Authenticate)', async () => {
    expect(await initializeStatus({})).toEqual({ status: 401, authenticate: 'Bearer' });
    expect((await initializeStatus({ authorization: 'Bearer not-a-token' })).status).toBe(401);
    await expect(connect({})).rejects.toThrow();
  });

  it('serves a static token, also one configured by its SHA-256, and audits calls as the token', async () => {
    for (const token of [plainToken, hashedToken]) {
      const client = await connect({ authorization: `Bearer ${token}` });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('kubectl_get');
      await client.close();
    }
    const client = await connect({ authorization: `Bearer ${plainToken}` });
    await client.callTool({ name: 'kubectl', arguments: { command: 'get namespaces -o name' } });
    await client.close();
    const database = openDatabase(files.dataDir);
    try {
      const entries = new AuditLog(database).query({ limit: 50, offset: 0, action: 'execute', user: 'token:ci' }).items;
      expect(entries.map((entry) => entry.details.command)).toContain('kubectl get namespaces -o name');
    } finally {
      database.close();
    }
  });

  it('serves Pilothouse session tokens of role user or admin, not viewer', async () => {
    const user = await web.createUser('user');
    const client = await connect({ authorization: `Bearer ${user.token}` });
    expect((await client.listTools()).tools.length).toBe(8);
    await client.close();
    const viewer = await web.createUser('viewer');
    expect((await initializeStatus({ authorization: `Bearer ${viewer.token}` })).status).toBe(403);
  });

  it('checks Host and Origin against the allowlist (DNS-rebinding defence)', async () => {
    const auth = { authorization: `Bearer ${plainToken}` };
    expect((await initializeStatus({ ...auth, host: `attacker.example:${url.port}` })).status).toBe(403);
    expect((await initializeStatus({ ...auth, host: 'mcp.internal.example:8443' })).status).toBe(200);
    expect((await initializeStatus({ ...auth, host: `localhost:${url.port}` })).status).toBe(200);
    expect((await initializeStatus({ ...auth, origin: 'http://attacker.example' })).status).toBe(403);
    expect((await initializeStatus({ ...auth, origin: `http://localhost:${url.port}` })).status).toBe(200);
    expect((await initializeStatus({ ...auth, origin: 'https://tools.example' })).status).toBe(200);
  });
});
