import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const namespace = useNamespace('logs');
let service: TestService;
const logDirectory = mkdtempSync(join(tmpdir(), 'pilothouse-logs-'));
const streamedFile = join(logDirectory, 'streamed.log');

function criLines(lines: string[]): string {
  return lines.map((line) => `${new Date().toISOString()} stdout F ${line}\n`).join('');
}

function podYaml(name: string, annotations: Record<string, string>, containers = ['app']): string {
  const annotationLines = Object.entries(annotations).map(([key, value]) => `    ${key}: ${JSON.stringify(value)}`);
  const containerLines = containers.map((container) => `  - name: ${container}\n    image: busybox`);
  return [
    `apiVersion: v1`,
    `kind: Pod`,
    `metadata:`,
    `  name: ${name}`,
    `  annotations:`,
    ...annotationLines,
    `spec:`,
    `  containers:`,
    ...containerLines,
  ].join('\n');
}

async function waitRunning(name: string): Promise<void> {
  await waitFor(
    async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', name, '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
  );
}

/** Reads a streamed body until `done(text so far)` holds. */
async function readUntil(body: ReadableStream<Uint8Array>, done: (text: string) => boolean): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

const path = (pod: string, query = ''): string => `/api/pods/${pod}/logs?namespace=${namespace.name}${query}`;

beforeAll(async () => {
  writeFileSync(streamedFile, criLines(['stream start']));
  service = await startTestService();
  const kubeconfig = clusterKubeconfig();
  await applyYaml(
    kubeconfig,
    podYaml('single', { 'pilothouse.dev/logs': 'one\ntwo\nthree', 'pilothouse.dev/previous-logs': 'before restart' }),
    namespace.name,
  );
  await applyYaml(
    kubeconfig,
    podYaml('multi', { 'pilothouse.dev/logs.web': 'web line', 'pilothouse.dev/logs.sidecar': 'sidecar line' }, ['web', 'sidecar']),
    namespace.name,
  );
  await applyYaml(kubeconfig, podYaml('streamed', { 'pilothouse.dev/logs-file': streamedFile }), namespace.name);
  await applyYaml(kubeconfig, podYaml('plain', { 'pilothouse.dev/logs': 'only current' }), namespace.name);
  for (const pod of ['single', 'multi', 'streamed', 'plain']) await waitRunning(pod);
});

afterAll(async () => {
  await service?.close();
  rmSync(logDirectory, { recursive: true, force: true });
});

describe('GET /api/pods/{name}/logs', () => {
  it('returns the log as plain text', async () => {
    await waitFor(async () => (await service.api('GET', path('single'), { token: service.adminToken })).text.includes('three'));
    const response = await service.api('GET', path('single'), { token: service.adminToken });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(response.text.split('\n').filter(Boolean)).toEqual(['one', 'two', 'three']);
  });

  it('honours tail and timestamps', async () => {
    const tailed = await service.api('GET', path('single', '&tail=1'), { token: service.adminToken });
    expect(tailed.text.trim()).toBe('three');
    const stamped = await service.api('GET', path('single', '&tail=1&timestamps=true'), { token: service.adminToken });
    expect(stamped.text.trim()).toMatch(/^\d{4}-\d{2}-\d{2}T\S+ three$/);
  });

  it('gives the previous container log, and 404 when there is none', async () => {
    const previous = await service.api('GET', path('single', '&previous=true'), { token: service.adminToken });
    expect(previous.status).toBe(200);
    expect(previous.text.trim()).toBe('before restart');
    const none = await service.api('GET', path('plain', '&previous=true'), { token: service.adminToken });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('NOT_FOUND');
  });

  it('needs a container when the pod has several, listing them', async () => {
    const response = await service.api('GET', path('multi'), { token: service.adminToken });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.details.containers).toEqual(['web', 'sidecar']);
    const chosen = await service.api('GET', path('multi', '&container=sidecar'), { token: service.adminToken });
    expect(chosen.status).toBe(200);
    expect(chosen.text.trim()).toBe('sidecar line');
  });

  it('404s for an unknown pod, container or wrong namespace', async () => {
    expect((await service.api('GET', path('nope'), { token: service.adminToken })).status).toBe(404);
    const container = await service.api('GET', path('single', '&container=ghost'), { token: service.adminToken });
    expect(container.status).toBe(404);
    expect(container.body.details.containers).toEqual(['app']);
    expect((await service.api('GET', `/api/pods/single/logs?namespace=default`, { token: service.adminToken })).status).toBe(404);
  });

  it('rejects bad query values before any cluster call', async () => {
    expect((await service.api('GET', path('single', '&tail=abc'), { token: service.adminToken })).status).toBe(400);
    expect((await service.api('GET', path('single', '&follow=maybe'), { token: service.adminToken })).status).toBe(400);
    expect((await service.api('GET', `/api/pods/single/logs?namespace=Bad_NS`, { token: service.adminToken })).status).toBe(400);
  });

  it('follow streams lines written after the request began (chunked text)', async () => {
    const response = await fetch(`${service.url}${path('streamed', '&follow=true')}`, { headers: { Authorization: `Bearer ${service.adminToken}` } });
    expect(response.status).toBe(200);
    const body = response.body!;
    const marker = `late-line-${Date.now()}`;
    const reading = follow(body, (text) => text.includes(marker));
    await reading.caughtUp;
    appendFileSync(streamedFile, criLines([marker]));
    const text = await reading.text;
    expect(text).toContain('stream start');
    expect(text).toContain(marker);
  });

  it('follow streams as SSE when asked', async () => {
    const response = await fetch(`${service.url}${path('streamed', '&follow=true&tail=1')}`, {
      headers: { Authorization: `Bearer ${service.adminToken}`, Accept: 'text/event-stream' },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const marker = `sse-line-${Date.now()}`;
    const reading = follow(response.body!, (text) => text.includes(marker));
    await reading.caughtUp;
    appendFileSync(streamedFile, criLines([marker]));
    const text = await reading.text;
    expect(text).toContain(`event: line\ndata: ${JSON.stringify({ line: marker })}`);
  });
});

/** The last line written to the streamed file so far (what a follower shows last once it reached the end). */
function lastWrittenLine(): string {
  const last = readFileSync(streamedFile, 'utf8').trimEnd().split('\n').at(-1) ?? '';
  return last.split(' ').slice(3).join(' ');
}

/**
 * Follows a streamed body until `done(text so far)` holds; `caughtUp` resolves once the stream showed the file's
 * last line, i.e. the log reader reached the end of the file and waits for more.
 */
function follow(body: ReadableStream<Uint8Array>, done: (text: string) => boolean): { caughtUp: Promise<void>; text: Promise<string> } {
  const last = lastWrittenLine();
  let reached = (): void => undefined;
  const caughtUp = new Promise<void>((resolve) => (reached = resolve));
  const text = readUntil(body, (soFar) => {
    if (soFar.includes(last)) reached();
    return done(soFar);
  });
  return { caughtUp, text };
}
