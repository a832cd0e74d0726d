import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { terminalOutput, terminalSession } from '../../helpers/terminal-session.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const namespace = useNamespace('term');
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ config: { server: { cors_origins: ['https://console.example'] } } });
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1\nkind: Pod\nmetadata: {name: shell}\nspec:\n  containers:\n  - {name: main, image: busybox}`,
    namespace.name,
  );
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1\nkind: Pod\nmetadata: {name: duo}\nspec:\n  containers:\n  - {name: main, image: busybox}\n  - {name: side, image: busybox}`,
    namespace.name,
  );
  for (const pod of ['shell', 'duo'])
    await waitFor(
      async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', pod, '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
    );
});

afterAll(async () => {
  await service?.close();
});

interface Frame {
  type: string;
  data?: string;
  code?: number | null;
  message?: string;
}

function terminalUrl(query: string): string {
  return `${service.url.replace('http', 'ws')}/api/pods/shell/terminal?namespace=${namespace.name}${query}`;
}

/** Opens a terminal, types `input`, and collects frames until the exit frame. */
function session(socket: WebSocket, input: string[]): Promise<Frame[]> {
  const frames: Frame[] = [];
  return new Promise((resolve, reject) => {
    socket.on('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.on('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'resize', cols: 100, rows: 30 })));
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      frames.push(frame);
      // Type once the shell has printed its prompt (the first output).
      if (frames.length === 1 && frame.type === 'output') for (const text of input) socket.send(JSON.stringify({ type: 'input', data: text }));
      if (frame.type === 'exit') resolve(frames);
    });
    socket.on('close', () => resolve(frames));
  });
}

function refusedStatus(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => {
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', () => resolve(-1));
    socket.on('open', () => resolve(101));
  });
}

async function ticket(): Promise<string> {
  const response = await service.api('POST', `/api/pods/shell/terminal/ticket`, { body: { namespace: namespace.name }, token: service.adminToken });
  expect(response.status).toBe(201);
  return response.body.ticket as string;
}

describe('web terminal', () => {
  it('runs an interactive shell through a one-time ticket', async () => {
    const value = await ticket();
    // Each line is typed after the answer to the one before, as a person types (a line sent with the shell's
    // exit could lose the shell's last output in the test cluster's simulated exec).
    const frames = await terminalSession(new WebSocket(terminalUrl(`&ticket=${value}&shell=/bin/sh`), ['pilothouse.terminal.v1']), [
      { after: /[#$] $/, input: 'echo marker-$((40+2))\n' },
      { after: /marker-42/, input: 'exit 0\n' },
    ]);
    expect(terminalOutput(frames)).toContain('marker-42');
    expect(frames.at(-1)).toEqual({ type: 'exit', code: 0 });
    // A ticket works once.
    expect(await refusedStatus(new WebSocket(terminalUrl(`&ticket=${value}`), ['pilothouse.terminal.v1']))).toBe(401);
  });

  it('accepts the bearer token as a subprotocol', async () => {
    const socket = new WebSocket(terminalUrl('&shell=/bin/sh'), ['pilothouse.terminal.v1', `bearer.${service.adminToken}`]);
    const frames = await session(socket, ['exit 7\n']);
    expect(socket.protocol).toBe('pilothouse.terminal.v1');
    expect(frames.at(-1)).toEqual({ type: 'exit', code: 7 });
  });

  it('refuses without credentials, with a bad ticket, or a ticket for another pod', async () => {
    expect(await refusedStatus(new WebSocket(terminalUrl(''), ['pilothouse.terminal.v1']))).toBe(401);
    expect(await refusedStatus(new WebSocket(terminalUrl('&ticket=made-up'), ['pilothouse.terminal.v1']))).toBe(401);
    const value = await ticket();
    const other = `${service.url.replace('http', 'ws')}/api/pods/other/terminal?namespace=${namespace.name}&ticket=${value}`;
    expect(await refusedStatus(new WebSocket(other, ['pilothouse.terminal.v1']))).toBe(403);
  });

  it('404s for an unknown pod and 400s for a bad shell', async () => {
    const unknown = `${service.url.replace('http', 'ws')}/api/pods/ghost/terminal?namespace=${namespace.name}`;
    expect(await refusedStatus(new WebSocket(unknown, ['pilothouse.terminal.v1', `bearer.${service.adminToken}`]))).toBe(404);
    expect(await refusedStatus(new WebSocket(terminalUrl('&shell=sh;rm'), ['pilothouse.terminal.v1', `bearer.${service.adminToken}`]))).toBe(400);
    expect((await service.api('POST', `/api/pods/ghost/terminal/ticket`, { body: { namespace: namespace.name }, token: service.adminToken })).status).toBe(404);
  });
});

describe('web terminal hardening', () => {
  /** The handshake status; an accepted socket is closed at once. */
  const handshake = async (socket: WebSocket): Promise<number> => {
    const status = await refusedStatus(socket);
    if (status === 101) socket.close();
    return status;
  };
  const base = () => service.url.replace('http', 'ws');
  const issue = async (pod: string, container?: string): Promise<string> => {
    const response = await service.api('POST', `/api/pods/${pod}/terminal/ticket`, {
      body: { namespace: namespace.name, container },
      token: service.adminToken,
    });
    expect(response.status).toBe(201);
    return response.body.ticket as string;
  };

  it('refuses a WebSocket from a foreign Origin, accepts its own origin and configured CORS origins', async () => {
    const open = (origin: string) =>
      handshake(new WebSocket(terminalUrl('&shell=/bin/sh'), ['pilothouse.terminal.v1', `bearer.${service.adminToken}`], { origin }));
    expect(await open('http://evil.example')).toBe(403);
    expect(await open(`http://localhost.evil.example:${new URL(service.url).port}`)).toBe(403);
    expect(await open(service.url)).toBe(101);
    expect(await open('https://console.example')).toBe(101);
    const ticketed = new WebSocket(terminalUrl(`&ticket=${await issue('shell')}`), ['pilothouse.terminal.v1'], { origin: 'http://evil.example' });
    expect(await handshake(ticketed)).toBe(403);
  });

  it('lets a ticket open only the terminal route of its pod, never another route', async () => {
    for (const path of [`/api/k8s/secrets?namespace=${namespace.name}`, `/api/pods/shell/logs?namespace=${namespace.name}`, `/api/audit`]) {
      const value = await issue('shell');
      const separator = path.includes('?') ? '&' : '?';
      const status = await handshake(new WebSocket(`${base()}${path}${separator}ticket=${value}&namespace=${namespace.name}`, ['pilothouse.terminal.v1']));
      expect(status, path).toBe(403);
    }
  });

  it('binds a ticket to its container', async () => {
    const forMain = await issue('duo', 'main');
    const url = (query: string) => `${base()}/api/pods/duo/terminal?namespace=${namespace.name}${query}`;
    expect(await handshake(new WebSocket(url(`&ticket=${forMain}&container=side`), ['pilothouse.terminal.v1']))).toBe(403);
    const forSide = await issue('duo', 'side');
    const frames = await session(new WebSocket(url(`&ticket=${forSide}&shell=/bin/sh`), ['pilothouse.terminal.v1']), ['exit 3\n']);
    expect(frames.at(-1)).toEqual({ type: 'exit', code: 3 });
    expect(
      (await service.api('POST', '/api/pods/duo/terminal/ticket', { body: { namespace: namespace.name, container: 'ghost' }, token: service.adminToken }))
        .status,
    ).toBe(404);
  });
});
