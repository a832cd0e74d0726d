import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// ADR 0027: every long-lived stream ends with the session that opened it.
const namespace = useNamespace('streams');
let service: TestService;
let expiring: TestService;

beforeAll(async () => {
  [service, expiring] = await Promise.all([
    startTestService(),
    startTestService({ config: { authorization: { jwt: { token_duration: '3s', refresh_window: '1s' } } } }),
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
  await Promise.all([service?.close(), expiring?.close()]);
});

/** An open stream: `rest` resolves with all its text at its end; `text()` is what arrived so far, `ended()` whether it ended. */
interface OpenStream {
  rest: Promise<string>;
  text(): string;
  ended(): boolean;
}

/** Opens a stream and reads it to its end (or 20 s); `first` is in the text once the stream is really open. */
async function openStream(target: TestService, path: string, token: string, accept: string, first: string): Promise<OpenStream> {
  const response = await fetch(target.url + path, { headers: { Authorization: `Bearer ${token}`, Accept: accept } });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(first)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before "${first}": ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  let ended = false;
  const rest = (async (): Promise<string> => {
    const deadline = setTimeout(() => void reader.cancel(), 20_000);
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    } catch (error) {
      return `${text}\n(read failed: ${String(error)})`;
    } finally {
      ended = true;
      clearTimeout(deadline);
    }
  })();
  return { rest, text: () => text, ended: () => ended };
}

const watchPath = (): string => `/api/k8s/pods/watch?namespace=${namespace.name}`;
const logsPath = (): string => `/api/pods/talker/logs?namespace=${namespace.name}&follow=true`;

function sessionEndedEvent(text: string): { code: string; details: { reason: string } } {
  const match = /event: error\ndata: (.*)\n\n$/.exec(text);
  if (!match?.[1]) throw new Error(`no final error event in: ${text.slice(-300)}`);
  return JSON.parse(match[1]) as { code: string; details: { reason: string } };
}

// That a revocation ends streams at once, not at the next sweep, is src/auth/sessions/session-streams.test.ts (its sweep is an hour away).
describe('streams end with their session', () => {
  it('logout ends the caller’s SSE watch with a final UNAUTHORIZED event; other users’ watches go on', async () => {
    const leaving = await service.createUser('admin');
    const staying = await service.createUser('admin');
    const ended = await openStream(service, watchPath(), leaving.token, 'text/event-stream', 'event: snapshot');
    const kept = await openStream(service, watchPath(), staying.token, 'text/event-stream', 'event: snapshot');
    expect((await service.api('POST', '/api/auth/logout', { token: leaving.token })).status).toBe(200);
    const text = await ended.rest;
    expect(sessionEndedEvent(text)).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'revoked' } });
    // The other user's watch still delivers changes made after the logout.
    const seen = uniqueName('after-logout');
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: v1\nkind: Pod\nmetadata: {name: ${seen}}\nspec:\n  containers:\n  - {name: main, image: busybox}`,
      namespace.name,
    );
    await waitFor(() => kept.text().includes(seen) || kept.ended());
    expect(kept.ended()).toBe(false);
    expect(kept.text()).toContain(seen);
    expect(kept.text()).not.toContain('event: error');
  });

  it('a lock ends followed logs, plain and SSE, at once', async () => {
    const locked = await service.createUser('admin');
    const plain = await openStream(service, logsPath(), locked.token, 'text/plain', 'hello');
    const events = await openStream(service, logsPath(), locked.token, 'text/event-stream', 'event: line');
    expect((await service.api('POST', '/api/admin/lock', { token: service.adminToken, body: { username: locked.username } })).status).toBe(200);
    const [plainText, eventText] = await Promise.all([plain.rest, events.rest]);
    expect(plainText).not.toContain('read failed');
    expect(sessionEndedEvent(eventText)).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'locked' } });
  });

  it('revoking, disabling or deleting closes the terminal WebSocket with 4401', async () => {
    for (const end of ['revoke', 'disable', 'delete'] as const) {
      const user = await service.createUser('admin');
      const url = `${service.url.replace('http', 'ws')}/api/pods/talker/terminal?namespace=${namespace.name}&shell=/bin/sh`;
      const socket = new WebSocket(url, ['pilothouse.terminal.v1', `bearer.${user.token}`]);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const closed = new Promise<{ code: number; reason: string }>((resolve) =>
        socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
      );
      const admin = { token: service.adminToken };
      if (end === 'revoke') await service.api('DELETE', `/api/admin/users/${user.username}/sessions`, admin);
      if (end === 'disable') await service.api('PATCH', `/api/admin/users/${user.username}`, { ...admin, body: { enabled: false } });
      if (end === 'delete') await service.api('DELETE', `/api/admin/users/${user.username}`, admin);
      const result = await closed;
      expect(result.code, end).toBe(4401);
      expect(result.reason, end).toMatch(/session ended|account (disabled|removed)/);
    }
  });

  it('a token that expires without refresh ends the watch (reason expired)', async () => {
    // The service's own admin token lives 3 s too: log in again before creating the user.
    expiring.adminToken = await expiring.login();
    const user = await expiring.createUser('admin');
    const stream = await openStream(expiring, watchPath(), user.token, 'text/event-stream', 'event: snapshot');
    const text = await stream.rest;
    expect(sessionEndedEvent(text)).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'expired' } });
  });
});
