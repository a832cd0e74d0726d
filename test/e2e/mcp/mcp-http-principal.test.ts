import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/audit/audit-log.js';
import { openDatabase } from '../../../src/store/database.js';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { serverModeFiles, startHttpServerMode } from './mcp-server-process.js';

// Issue 23, finding 6: over Streamable HTTP every call ran as one fixed principal (`mcp`, viewer or admin,
// no roles): a user's deny role vanished and a Secret's last-applied values came back. Now each request
// runs as the bearer token's own principal, authenticated as the web API does, decided by the one policy.

const open = useNamespace('mcpp-open');
const closed = useNamespace('mcpp-closed');
const staticToken = 'static-token-for-mcp-principal-01';
const authorization = {
  roles: [{ name: 'no-closed', resources: ['*'], namespaces: [closed.name], verbs: ['*' as const], effect: 'deny' as const }],
};
const files = serverModeFiles({ authorization, mcp_server: { tokens: [{ name: 'ci', token: staticToken }] } });
let child: ChildProcess | undefined;
let url: URL;
let web: TestService;

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'pilothouse-principal-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** One kubectl call over MCP as the token's caller: the text and the error flag. */
async function kubectl(token: string, command: string): Promise<{ text: string; isError: boolean }> {
  const client = await connect(token);
  try {
    const result = (await client.callTool({ name: 'kubectl', arguments: { command } })) as { content: { text: string }[]; isError?: boolean };
    return { text: result.content.map((part) => part.text).join('\n'), isError: result.isError === true };
  } finally {
    await client.close();
  }
}

/** The status of a bare `initialize` with this bearer token. */
async function initializeStatus(token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

function auditRows(user: string): { command: unknown; decision: string; outcome: string | null }[] {
  const database = openDatabase(files.dataDir);
  try {
    const entries = new AuditLog(database).query({ limit: 100, offset: 0, action: 'execute', user }).items;
    return entries.map((entry) => ({ command: entry.details.command, decision: entry.decision, outcome: entry.outcome }));
  } finally {
    database.close();
  }
}

beforeAll(async () => {
  const kubeconfig = clusterKubeconfig();
  // kubectl apply writes last-applied, which repeats the Secret's value in plain text.
  for (const namespace of [open.name, closed.name]) {
    await applyYaml(
      kubeconfig,
      `apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {password: hunter2-applied}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\ndata: {a: b}\n`,
      namespace,
    );
  }
  web = await startTestService({ dataDir: files.dataDir, config: { authorization } });
  const started = await startHttpServerMode(files.args(kubeconfig, ['--mcp-transport', 'http', '--port', '0']));
  child = started.child;
  url = new URL(started.url);
}, 120_000);

afterAll(async () => {
  child?.removeAllListeners('exit');
  child?.kill('SIGTERM');
  await web?.close();
  files.remove();
});

describe('MCP server mode over HTTP runs as the caller', () => {
  it("refuses a user's namespace denied by their per-user role, and serves the rest", async () => {
    const alice = await web.createUser('user', { roles: ['no-closed'] });
    const denied = await kubectl(alice.token, `get configmap plain -n ${closed.name} -o name`);
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(/resource-level role denies/);
    const allowed = await kubectl(alice.token, `get configmap plain -n ${open.name} -o name`);
    expect(allowed).toEqual({ text: 'configmap/plain\n', isError: false });
    // Another user without the role reads the same namespace: the decision is per caller.
    const bob = await web.createUser('user');
    expect(await kubectl(bob.token, `get configmap plain -n ${closed.name} -o name`)).toEqual({ text: 'configmap/plain\n', isError: false });
    expect(auditRows(alice.username).map((row) => row.command)).toEqual(
      expect.arrayContaining([`kubectl get configmap plain -n ${closed.name} -o name`, `kubectl get configmap plain -n ${open.name} -o name`]),
    );
  });

  it('masks secret values as the HTTP API does: a user sees no last-applied, an admin does', async () => {
    const user = await web.createUser('user');
    for (const format of ['yaml', 'json']) {
      const shown = await kubectl(user.token, `get secret creds -n ${open.name} -o ${format}`);
      expect(shown.isError, shown.text).toBe(false);
      expect(shown.text).toContain(Buffer.from('hunter2-applied').toString('base64'));
      expect(shown.text).not.toContain('hunter2-applied');
    }
    const listed = await kubectl(user.token, `get secrets -n ${open.name} -o yaml`);
    expect(listed.text).toContain('creds');
    expect(listed.text).not.toContain('hunter2-applied');
    const admin = await web.createUser('admin');
    expect((await kubectl(admin.token, `get secret creds -n ${open.name} -o yaml`)).text).toContain('hunter2-applied');
  });

  it('refuses a revoked session token and a locked account on the next request (401)', async () => {
    const leaving = await web.createUser('user');
    expect((await kubectl(leaving.token, `get configmap plain -n ${open.name} -o name`)).isError).toBe(false);
    expect((await web.api('POST', '/api/auth/logout', { token: leaving.token })).status).toBe(200);
    expect(await initializeStatus(leaving.token)).toBe(401);
    const locked = await web.createUser('user');
    expect(await initializeStatus(locked.token)).toBe(200);
    expect((await web.api('POST', '/api/admin/lock', { token: web.adminToken, body: { username: locked.username } })).status).toBe(200);
    expect(await initializeStatus(locked.token)).toBe(401);
    await expect(connect(locked.token)).rejects.toThrow();
  });

  it('refuses requests without credentials or with a forged token', async () => {
    expect(await initializeStatus('')).toBe(401);
    expect(await initializeStatus('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.forged')).toBe(401);
  });

  it('runs a static token as token:<name> with the configured role (read-only server: reads only)', async () => {
    expect(await kubectl(staticToken, `get configmap plain -n ${open.name} -o name`)).toEqual({ text: 'configmap/plain\n', isError: false });
    expect(auditRows('token:ci')).toEqual([expect.objectContaining({ command: `kubectl get configmap plain -n ${open.name} -o name`, decision: 'allow' })]);
  });

  it("applies a manifest (server dry run) from the caller's private folder, and still under their deny role", async () => {
    const alice = await web.createUser('user', { roles: ['no-closed'] });
    const client = await connect(alice.token);
    const apply = async (namespace: string): Promise<{ text: string; isError: boolean }> => {
      const manifest = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: dry, namespace: ${namespace}}\ndata: {a: b}\n`;
      const result = (await client.callTool({ name: 'kubectl_apply', arguments: { manifest, dry_run: true } })) as {
        content: { text: string }[];
        isError?: boolean;
      };
      return { text: result.content.map((part) => part.text).join('\n'), isError: result.isError === true };
    };
    try {
      expect(await apply(open.name)).toEqual({ text: expect.stringMatching(/configmap\/dry created \(server dry run\)/), isError: false });
      const denied = await apply(closed.name);
      expect(denied.isError).toBe(true);
      expect(denied.text).toMatch(/resource-level role denies/);
    } finally {
      await client.close();
    }
    expect(await runKubectl(clusterKubeconfig(), ['get', 'configmaps', '-n', open.name, '-o', 'name'])).not.toContain('dry');
  });
});
