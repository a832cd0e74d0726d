import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { rootDirectory } from '../../helpers/paths.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { TmuxPane } from '../../helpers/tmux.js';

// The terminal UI in a 120×40 tmux pane (`node bin/pilothouse tui`, dist/ built by `npx tsc -p tsconfig.build.json`):
// `:forwards` lists port forwards across namespaces, a Service's as the Service, and ctrl-d stops one after a y/n
// (issue 39 item 25); `i` on a pod asks for an investigation and `:investigations` shows its findings (issue 37).

const first = useNamespace('tui-fwd-a');
const second = useNamespace('tui-fwd-b');
const program = join(rootDirectory, 'bin', 'pilothouse');
let service: TestService;
let wire: LlmWireServer;
let podSide: Server;
let pane: TmuxPane | undefined;

function remote(token: string): TmuxPane {
  const tokenFile = join(mkdtempSync(join(tmpdir(), 'ph-tui-token-')), 'token');
  writeFileSync(tokenFile, token, { mode: 0o600 });
  pane = TmuxPane.start([process.execPath, program, 'tui', '--url', service.url, '--token-file', tokenFile, '-n', first.name], {
    HOME: mkdtempSync(join(tmpdir(), 'ph-tui-home-')),
  });
  return pane;
}

async function command(tui: TmuxPane, line: string, shows: RegExp): Promise<string> {
  await tui.waitFor(/pods\(/);
  tui.keys(':');
  tui.type(line);
  tui.keys('Enter');
  return tui.waitFor(shows);
}

const podYaml = (port: number): string => `apiVersion: v1
kind: Pod
metadata:
  name: api-0
  labels: {app: api}
  annotations: {pilothouse.dev/forward-80: "127.0.0.1:${port}"}
spec:
  containers: [{name: api, image: nginx, ports: [{containerPort: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: api}
spec:
  selector: {app: api}
  ports: [{port: 8080, targetPort: 80}]`;

beforeAll(async () => {
  podSide = createServer((request, response) => response.end(`pod side ${request.url}`));
  await new Promise<void>((resolve) => podSide.listen(0, '127.0.0.1', resolve));
  const port = (podSide.address() as AddressInfo).port;
  wire = await startLlmWireServer();
  const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-tui-investigations', max_retries: 0 };
  service = await startTestService({ config: { llm: llm as never } as never });
  for (const namespace of [first.name, second.name]) await applyYaml(clusterKubeconfig(), podYaml(port), namespace);
  for (const namespace of [first.name, second.name]) {
    await waitFor(
      async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', 'api-0', '-n', namespace, '-o', 'jsonpath={.status.phase}'])) === 'Running',
    );
  }
}, 60_000);

afterEach(() => {
  pane?.stop();
  pane = undefined;
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
  podSide?.close();
});

describe('pilothouse tui :forwards', () => {
  it('lists the forwards of every namespace, a Service forward as the Service, and ctrl-d stops one after a y/n', async () => {
    const start = (body: Record<string, unknown>) => service.api('POST', '/api/portforward', { token: service.adminToken, body });
    const viaService = await start({ namespace: first.name, pod: 'api-0', podPort: 80, service: 'api' });
    expect(viaService.status, viaService.text).toBe(201);
    const toPod = await start({ namespace: second.name, pod: 'api-0', podPort: 80 });
    expect(toPod.status, toPod.text).toBe(201);
    // A service that does not select the pod is refused.
    expect((await start({ namespace: first.name, pod: 'api-0', podPort: 80, service: 'no-such-service' })).status).toBe(404);

    const tui = remote(service.adminToken);
    const listed = await command(tui, 'forwards', /port forwards\[\d+\]/);
    const rowOf = (screen: string, id: string): string => screen.split('\n').find((line) => line.includes(id)) ?? '';
    await tui.waitFor(toPod.body.id);
    const screen = tui.screen();
    expect(rowOf(screen, viaService.body.id)).toMatch(new RegExp(`${first.name}.*service/api:80.*127\\.0\\.0\\.1:${viaService.body.localPort}.*active`));
    expect(rowOf(screen, toPod.body.id)).toMatch(new RegExp(`${second.name}.*pod/api-0:80.*127\\.0\\.0\\.1:${toPod.body.localPort}.*active`));
    expect(listed).toMatch(/NAMESPACE/);

    // Filter to the service forward, ctrl-d: the question names it; n keeps it, y stops it.
    tui.keys('/');
    tui.type(viaService.body.id);
    tui.keys('Enter');
    await tui.waitFor(new RegExp(`port forwards\\[1\\] /${viaService.body.id}`));
    tui.keys('C-d');
    await tui.waitFor(`Stop the forward ${viaService.body.id} to ${first.name}/service/api:80 on 127.0.0.1:${viaService.body.localPort}?`);
    tui.keys('n');
    await tui.waitForGone('Stop the forward');
    expect((await fetch(`http://127.0.0.1:${viaService.body.localPort}/still`)).ok).toBe(true);
    tui.keys('C-d');
    await tui.waitFor('Stop the forward');
    tui.keys('y');
    await tui.waitFor(`Port forward ${viaService.body.id} to ${first.name}/service/api:80 stopped`);
    await tui.waitFor(/port forwards\[0\]/);
    const left = await service.api('GET', '/api/portforward', { token: service.adminToken });
    expect(left.body.items.map((item: { id: string }) => item.id)).toEqual([toPod.body.id]);
  });
});

describe('pilothouse tui investigations', () => {
  it('i on a pod starts an investigation; :investigations lists it and enter shows its findings and suggested action', async () => {
    wire.script([
      { toolCalls: [{ name: 'kubectl', arguments: { command: `get pod api-0 -n ${first.name} -o name` } }] },
      {
        toolCalls: [
          {
            name: 'conclude',
            arguments: {
              summary: 'api-0 is fine but alone.',
              findings: [{ title: 'Single pod', detail: 'api has one pod', evidence: 'pod/api-0 Running' }],
              suggestedActions: [{ command: `kubectl delete pod api-0 -n ${first.name}`, rationale: 'test a restart' }],
            },
          },
        ],
      },
    ]);
    const tui = remote(service.adminToken);
    await tui.waitFor(/pods\(.*\)\[1\]/);
    await tui.waitFor('api-0');
    tui.keys('i');
    await tui.waitFor(`Investigate pod/api-0 (${first.name}): question`);
    tui.keys('Enter');
    const started = await tui.waitFor(/Investigation (\S+) of pod\/api-0 \(\S+\) started \(read-only\)/);
    const name = /Investigation (\S+) of pod\/api-0/.exec(started)?.[1] ?? '';
    const investigation = await service.api('GET', `/api/investigations/${name}`, { token: service.adminToken });
    expect(investigation.body.spec).toMatchObject({ subject: { kind: 'Pod', namespace: first.name, name: 'api-0' }, requester: 'admin' });

    await command(tui, 'investigations', /investigations\[\d+\]/);
    // The list is read again every few seconds: the phase moves on without a key.
    await tui.waitFor(new RegExp(`${name}\\s+Concluded\\s+Pod ${first.name}/api-0`), 60_000);
    tui.keys('/');
    tui.type(name);
    tui.keys('Enter');
    await tui.waitFor(new RegExp(`investigations\\[1\\] /${name}`));
    tui.keys('Enter');
    const details = await tui.waitFor('Findings:');
    expect(details).toContain('Phase: Concluded');
    expect(details).toContain('Summary: api-0 is fine but alone.');
    expect(details).toContain('1. Single pod');
    expect(details).toContain('evidence: pod/api-0 Running');
    expect(details).toMatch(new RegExp(`0\\. kubectl delete pod api-0 -n ${first.name} \\([a-z]+\\)`));
    // Read-only: nothing the pilot suggested ran.
    expect(await runKubectl(clusterKubeconfig(), ['get', 'pod', 'api-0', '-n', first.name, '-o', 'name'])).toContain('pod/api-0');
  });
});
