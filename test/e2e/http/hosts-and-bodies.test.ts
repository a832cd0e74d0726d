import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// ADR 0027: Host allowlist, the embedded service's token, body limits and a cluster client that survives broken connections.
const namespace = useNamespace('hosts');
const scratch = mkdtempSync(join(tmpdir(), 'pilothouse-hosts-'));
let service: TestService;
let open: TestService;

/** A plain HTTP GET with a chosen Host header (fetch does not let a caller set it). */
function getWithHost(url: string, host: string | undefined, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const sent = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        setHost: false,
        headers: host === undefined ? headers : { ...headers, Host: host },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text }));
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

beforeAll(async () => {
  [service, open] = await Promise.all([
    startTestService({ config: { server: { allowed_hosts: ['pilothouse.example', '*.svc.cluster.local'] } } }),
    startTestService({ noAuth: true }),
  ]);
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: talker\n  annotations:\n    pilothouse.dev/logs: "hello"\nspec:\n  containers:\n  - {name: main, image: busybox}`,
    namespace.name,
  );
  await waitFor(
    async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', 'talker', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
  );
});

afterAll(async () => {
  await Promise.all([service?.close(), open?.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

describe('Host allowlist (DNS rebinding)', () => {
  it('refuses a foreign Host with 403 and the error body, also without authentication', async () => {
    for (const target of [service, open]) {
      const refused = await getWithHost(`${target.url}/api/health`, 'attacker.example');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: expect.stringContaining('server.allowed_hosts'), code: 'FORBIDDEN', details: { reason: 'host_not_allowed' } });
      expect((await getWithHost(`${target.url}/api/k8s/pods?namespace=default`, 'attacker.example:8080')).status).toBe(403);
      // No Host at all: Node's HTTP server itself answers 400 before any route runs.
      expect((await getWithHost(`${target.url}/api/health`, undefined)).status).toBe(400);
    }
  });

  it('answers IP literals, localhost and the configured names', async () => {
    const port = new URL(service.url).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'localhost',
      '[::1]',
      '10.1.2.3:8080',
      `pilothouse.example:${port}`,
      'web.ns.svc.cluster.local',
    ])
      expect((await getWithHost(`${service.url}/api/health`, host)).status, host).toBe(200);
    expect((await getWithHost(`${service.url}/api/health`, 'pilothouse.example.attacker.net')).status).toBe(403);
    expect((await getWithHost(`${open.url}/api/health`, 'pilothouse.example')).status).toBe(403);
  });

  it('refuses WebSocket upgrades under a foreign Host', async () => {
    const socket = new WebSocket(`${open.url.replace('http', 'ws')}/api/pods/talker/terminal?namespace=${namespace.name}`, ['pilothouse.terminal.v1'], {
      headers: { Host: 'attacker.example' },
    });
    const status = await new Promise<number>((resolve) => {
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => resolve(101));
    });
    expect(status).toBe(403);
  });
});

describe('the embedded service of `pilothouse tui`', () => {
  it('answers only requests carrying its per-process token, even with authentication off', async () => {
    const embedded = await startTestService({ noAuth: true, embedToken: 'token-of-this-tui-process-0123456789' });
    try {
      expect((await embedded.api('GET', `/api/k8s/pods?namespace=${namespace.name}`)).status).toBe(200);
      const stranger = await fetch(`${embedded.url}/api/k8s/pods?namespace=${namespace.name}`);
      expect(stranger.status).toBe(401);
      expect(await stranger.json()).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'embed_token' } });
      const guessed = await fetch(`${embedded.url}/api/health`, { headers: { 'X-Pilothouse-Embed-Token': 'token-of-this-tui-process-0123456788' } });
      expect(guessed.status).toBe(401);
    } finally {
      await embedded.close();
    }
  });
});

/** Nested aliases: each level repeats the previous nine times (9^7 strings, 54 aliases, from a few hundred bytes). */
function aliasBomb(name: string): string {
  const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (const level of 'bcdefg') {
    const previous = String.fromCharCode(level.charCodeAt(0) - 1);
    levels.push(`${level}: &${level} [${Array(9).fill(`*${previous}`).join(',')}]`);
  }
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace.name}\nx:\n  ${levels.join('\n  ')}\ndata:\n  boom: "x"\n`;
}

describe('request bodies', () => {
  it('refuses a YAML alias bomb at once with 413; afterwards every user still lists pods', async () => {
    const bomb = aliasBomb('bomb');
    // 375 bytes and the namespace's name: far under the body limit, while its expansion is over it.
    expect(Buffer.byteLength(bomb)).toBe(375 + namespace.name.length);
    const viewer = await service.createUser('viewer');
    const refused = await service.api('POST', '/api/k8s/configmaps/apply', {
      token: service.adminToken,
      body: bomb,
      headers: { 'Content-Type': 'application/yaml' },
    });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { reason: 'expanded_too_large' } });
    for (const token of [service.adminToken, viewer.token]) {
      const pods = await service.api('GET', `/api/k8s/pods?namespace=${namespace.name}`, { token });
      expect(pods.status).toBe(200);
      expect(JSON.stringify(pods.body)).toContain('talker');
    }
    expect((await runKubectl(clusterKubeconfig(), ['get', 'configmaps', '-n', namespace.name, '-o', 'name'])).includes('bomb')).toBe(false);
  });

  it('refuses more aliases than the budget, and JSON nested past the depth limit, with 400', async () => {
    const anchors = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: many, namespace: ${namespace.name}}\nx: &x 1\ndata:\n${Array.from({ length: 80 }, (_, index) => `  k${index}: *x`).join('\n')}\n`;
    const many = await service.api('POST', '/api/k8s/configmaps/apply', {
      token: service.adminToken,
      body: anchors,
      headers: { 'Content-Type': 'application/yaml' },
    });
    expect(many.status).toBe(400);
    expect(many.body.error).toMatch(/maxAliases/);
    let nested: unknown = 'deep';
    for (let level = 0; level < 150; level += 1) nested = { n: nested };
    const deep = await service.api('POST', '/api/k8s/configmaps/apply', {
      token: service.adminToken,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deep', namespace: namespace.name }, x: nested },
    });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { reason: 'too_deep' } });
  });
});

/** A TCP proxy in front of the real API server that can cut every connection through it. */
async function startCuttingProxy(server: URL): Promise<{ port: number; cutAll(): void; close(): Promise<void>; cuts: number }> {
  const sockets = new Set<Socket>();
  const state = { cuts: 0 };
  const proxy: Server = createServer((client) => {
    const upstream = connect(Number(server.port), server.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as { port: number }).port,
    get cuts() {
      return state.cuts;
    },
    cutAll: () => {
      state.cuts += sockets.size;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}

describe('the cluster client after a broken connection', () => {
  it('the next request after the API server connection is reset succeeds', async () => {
    const config = yaml.load(readFileSync(clusterKubeconfig(), 'utf8')) as { clusters: { cluster: { server: string } }[] };
    const server = new URL(config.clusters[0]!.cluster.server);
    const proxy = await startCuttingProxy(server);
    config.clusters[0]!.cluster.server = `${server.protocol}//${server.hostname}:${proxy.port}`;
    const kubeconfig = join(scratch, 'through-proxy.yaml');
    writeFileSync(kubeconfig, yaml.dump(config));
    const proxied = await startTestService({ kubeconfig });
    try {
      const logs = (): Promise<{ status: number; text: string }> =>
        proxied.api('GET', `/api/pods/talker/logs?namespace=${namespace.name}`, { token: proxied.adminToken });
      expect((await logs()).text).toContain('hello');
      for (let round = 0; round < 3; round += 1) {
        proxy.cutAll();
        const after = await logs();
        expect(after.status, after.text).toBe(200);
        expect(after.text).toContain('hello');
      }
      expect(proxy.cuts).toBeGreaterThan(0);
      const pods = await proxied.api('GET', `/api/k8s/pods?namespace=${namespace.name}`, { token: proxied.adminToken });
      expect(pods.status).toBe(200);
    } finally {
      await proxied.close();
      await proxy.close();
    }
  });
});
