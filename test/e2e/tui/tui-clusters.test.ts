import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { deploymentYaml } from '../../helpers/manifests.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { rootDirectory } from '../../helpers/paths.js';
import { useSecondCluster } from '../../helpers/second-cluster.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { TmuxPane } from '../../helpers/tmux.js';

// The terminal UI across two real clusters (ADR 0035): `node bin/pilothouse tui` (dist/, built by
// `npx tsc -p tsconfig.build.json`) in a tmux pane against a Pilothouse serving the shared test cluster (home) and a
// second `testcluster up` (`clusters:` in the config). The same namespace holds a different pod on each cluster.

const namespace = useNamespace('tui-ctx');
const second = useSecondCluster();
const program = join(rootDirectory, 'bin', 'pilothouse');
let service: TestService;
let wire: LlmWireServer;
let pane: TmuxPane | undefined;

const podYaml = (name: string): string => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - {name: main, image: busybox}`;
const replicas = (kubeconfig: string): Promise<string> =>
  runKubectl(kubeconfig, ['get', 'deployment', 'web', '-n', namespace.name, '-o', 'jsonpath={.spec.replicas}']);
const phase = (kubeconfig: string, pod: string): Promise<string> =>
  runKubectl(kubeconfig, ['get', 'pod', pod, '-n', namespace.name, '-o', 'jsonpath={.status.phase}']);

function tokenFile(token: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ph-tui-token-')), 'token');
  writeFileSync(file, token, { mode: 0o600 });
  return file;
}

/** The TUI against the test service as admin, in the test namespace. */
function start(extra: string[] = []): TmuxPane {
  pane = TmuxPane.start(
    [process.execPath, program, 'tui', '--url', service.url, '--token-file', tokenFile(service.adminToken), '-n', namespace.name, ...extra],
    // Colours on (bold shows in capture-pane -e) even under CI=true.
    { HOME: mkdtempSync(join(tmpdir(), 'ph-tui-home-')), FORCE_COLOR: '1' },
  );
  return pane;
}

/** `:` then a command, once the command line is open. */
async function command(tui: TmuxPane, text: string): Promise<void> {
  tui.keys(':');
  await tui.waitFor(/^:/m);
  tui.type(text);
  tui.keys('Enter');
}

beforeAll(async () => {
  const other = second.current.kubeconfig;
  await runKubectl(other, ['create', 'namespace', namespace.name]);
  await applyYaml(clusterKubeconfig(), podYaml('on-home'), namespace.name);
  await applyYaml(other, podYaml('on-second'), namespace.name);
  for (const kubeconfig of [clusterKubeconfig(), other]) await applyYaml(kubeconfig, deploymentYaml('web'), namespace.name);
  await waitFor(async () => (await phase(clusterKubeconfig(), 'on-home')) === 'Running', 60_000);
  await waitFor(async () => (await phase(other, 'on-second')) === 'Running', 60_000);
  wire = await startLlmWireServer();
  const llm = { provider: 'openai' as const, model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-tui-clusters-test', max_retries: 0 };
  service = await startTestService({ config: { llm, clusters: [{ name: 'second', kubeconfig: other }] } });
  let last = '';
  await waitFor(async () => {
    const answer = await service.api<{ items?: { name: string; reachable: boolean }[] }>('GET', '/api/clusters', { token: service.adminToken });
    last = answer.text;
    return (answer.body.items ?? []).some((item) => item.name === 'second' && item.reachable);
  }, 60_000).catch((error: unknown) => {
    throw new Error(`the second cluster never showed up reachable in GET /api/clusters: ${last}`, { cause: error });
  });
});

afterEach(() => {
  pane?.stop();
  pane = undefined;
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

describe('pilothouse tui across clusters', () => {
  it(':ctx switches the cluster: the header names it and the pods are that cluster’s; :ctx alone picks from the list', async () => {
    const tui = start();
    await tui.waitFor(/on-home\s+Running/);
    // The header's data (health, user, clusters) arrives on its own request, after the first rows.
    const home = await tui.waitFor(/cluster: home/);
    expect(home).toMatch(/on-home\s+Running/);
    expect(home).not.toContain('on-second');

    await command(tui, 'ctx second');
    const switched = await tui.waitFor(/on-second\s+Running/);
    expect(switched).toMatch(/cluster: second/);
    // The header's cluster is bold (SGR 1 right before the name).
    expect(tui.colouredScreen()).toMatch(/cluster: \x1b\[[0-9;]*1[0-9;]*m(?:\x1b\[[0-9;]*m)*second/);
    expect(switched).not.toContain('on-home');

    await command(tui, 'ctx nowhere');
    const refused = await tui.waitFor('no cluster "nowhere" (clusters: home, second)');
    expect(refused).toMatch(/cluster: second/);
    expect(refused).toMatch(/on-second\s+Running/);

    await command(tui, 'ctx');
    const picker = await tui.waitFor(/Clusters/);
    expect(picker).toMatch(/\s{2}home\s+v\S+ \(home\)/);
    expect(picker).toMatch(/\* second\s+v\S+/);
    tui.keys('k');
    tui.keys('Enter');
    const back = await tui.waitFor(/on-home\s+Running/);
    expect(back).toMatch(/cluster: home/);
    expect(back).not.toContain('on-second');
  });

  it('--cluster NAME starts on that cluster; an unknown name ends the UI with the error (exit 2)', async () => {
    const tui = start(['--cluster', 'second']);
    const first = await tui.waitFor(/on-second\s+Running/);
    expect(first).toMatch(/cluster: second/);
    tui.stop();

    const wrong = start(['--cluster', 'nowhere']);
    const screen = await wrong.waitFor(/\[exited \d+\]/);
    expect(screen).toContain('pilothouse: no cluster "nowhere" (clusters: home, second)');
    expect(screen).toContain('[exited 2]');
  });

  it('a chat turn on the second cluster runs its tool call there, and the approval prompt names that cluster', async () => {
    const scale = { name: 'kubectl', arguments: { command: `scale deployment web --replicas=2 -n ${namespace.name}` } };
    wire.script([{ text: ['Scaling web.'], toolCalls: [scale] }, { text: ['Done.'] }]);
    const tui = start(['--cluster', 'second']);
    await tui.waitFor(/on-second\s+Running/, 60_000);
    tui.keys('a');
    await tui.waitFor('Press i to ask about your cluster');
    tui.keys('i');
    await tui.waitFor('Ask:');
    tui.type('Scale web to 2');
    tui.keys('Enter');
    const waiting = await tui.waitFor(/Approve\? y yes \/ n no/);
    expect(waiting).toContain('on cluster: second');
    tui.keys('y');
    await waitFor(async () => (await replicas(second.current.kubeconfig)) === '2', 30_000);
    expect(await replicas(clusterKubeconfig())).toBe('1');
  });
});
