import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { deploymentYaml } from '../../helpers/manifests.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { rootDirectory } from '../../helpers/paths.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { TmuxPane } from '../../helpers/tmux.js';

// The AI pilot pane of the terminal UI end to end: `node bin/pilothouse tui` (dist/, built by
// `npx tsc -p tsconfig.build.json`) in a tmux pane against a test service whose LLM is the scripted wire
// server; the scripted model asks for a kubectl write, and the approval is a keypress in the pane.

const namespace = useNamespace('tui-ai');
const program = join(rootDirectory, 'bin', 'pilothouse');
let service: TestService;
let wire: LlmWireServer;
let pane: TmuxPane | undefined;

const replicas = (): Promise<string> => runKubectl(clusterKubeconfig(), ['get', 'deployment', 'web', '-n', namespace.name, '-o', 'jsonpath={.spec.replicas}']);
const scaleTo = (count: number) => ({ name: 'kubectl', arguments: { command: `scale deployment web --replicas=${count} -n ${namespace.name}` } });

/** The TUI against the test service, signed in as admin, in the test namespace; `size` defaults to 120×40. */
function remote(size?: { width: number; height: number }): TmuxPane {
  const file = join(mkdtempSync(join(tmpdir(), 'ph-tui-ai-token-')), 'token');
  writeFileSync(file, service.adminToken, { mode: 0o600 });
  const argv = [process.execPath, program, 'tui', '--url', service.url, '--token-file', file, '-n', namespace.name, '--lang', 'en'];
  pane = TmuxPane.start(argv, { HOME: mkdtempSync(join(tmpdir(), 'ph-tui-ai-home-')) }, size);
  return pane;
}

/** Opens the pane with `a` and asks `question` (i, text, Enter). */
async function ask(tui: TmuxPane, question: string): Promise<void> {
  // The first screen: generous, the machine may be busy.
  await tui.waitFor(/web-\S+\s+Running/, 60_000);
  tui.keys('a');
  await tui.waitFor('Press i to ask about your cluster');
  tui.keys('i');
  await tui.waitFor('Ask:');
  tui.type(question);
  tui.keys('Enter');
}

/** The seconds the approval countdown shows now. */
function secondsLeft(screen: string): number {
  const match = /— (\d+) s left/.exec(screen);
  if (!match) throw new Error(`no countdown on the screen:\n${screen}`);
  return Number(match[1]);
}

beforeAll(async () => {
  wire = await startLlmWireServer();
  service = await startTestService({
    config: { llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-tui-ai-test', max_retries: 0 } },
  });
  await applyYaml(clusterKubeconfig(), deploymentYaml('web'), namespace.name);
  await waitFor(async () => (await replicas()) === '1');
});

beforeEach(() => wire.reset());

afterEach(() => {
  pane?.stop();
  pane = undefined;
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

describe('the AI pilot pane of pilothouse tui', () => {
  it('streams the answer, shows the write with its safety report and a ticking countdown, and runs it on y', async () => {
    wire.script([{ text: ['I will scale ', 'web to 2.'], toolCalls: [scaleTo(2)] }, { text: ['Scaled web ', 'to two replicas.'] }]);
    const tui = remote();
    await ask(tui, 'Scale web to 2');
    const waiting = await tui.waitFor(/Approve\? y yes \/ n no — \d+ s left/);
    expect(waiting).toContain('› Scale web to 2');
    expect(waiting).toContain('I will scale web to 2.');
    expect(waiting).toContain('⚙ kubectl scale deployment web --replicas=2 -n');
    expect(waiting).toContain('[write]');
    // The table stays visible beside the pane at 120 columns.
    expect(waiting).toMatch(/web-\S+\s+Running/);
    const first = secondsLeft(waiting);
    expect(first).toBeGreaterThan(5);
    expect(first).toBeLessThanOrEqual(30);
    await waitFor(() => secondsLeft(tui.screen()) < first);

    tui.keys('y');
    const done = await tui.waitFor('Scaled web to two replicas.');
    expect(done).toMatch(/✓ ▸ executed · deployment\.apps\/web scaled/);
    expect(done).not.toMatch(/s left/);
    expect(await replicas()).toBe('2');
  });

  it('shows a dangerous call with its warning, rejects it with n (nothing runs), and the history list reopens the chat', async () => {
    const remove = { name: 'kubectl', arguments: { command: `delete deployment web -n ${namespace.name}` } };
    wire.script([{ toolCalls: [remove] }, { text: ['Understood, I left web alone.'] }]);
    const tui = remote();
    await ask(tui, 'Delete web');
    const waiting = await tui.waitFor(/Approve\? y yes \/ n no — \d+ s left/);
    expect(waiting).toContain('[dangerous]');
    expect(waiting).toContain('⚠ deletes resources');
    tui.keys('n');
    const rejected = await tui.waitFor('Understood, I left web alone.');
    expect(rejected).toMatch(/✗ ▸ rejected/);
    expect(await runKubectl(clusterKubeconfig(), ['get', 'deployment', 'web', '-n', namespace.name, '-o', 'name'])).toContain('deployment.apps/web');

    tui.keys('?');
    const help = await tui.waitFor('Keys of the pilot view');
    expect(help).toContain('approve the waiting tool call');
    expect(help).toContain('reject the waiting tool call');
    expect(help).not.toContain('port-forward');
    tui.keys('Escape');
    await tui.waitForGone('Keys of the pilot view');

    tui.keys('c');
    await tui.waitFor('Press i to ask about your cluster');
    tui.keys('h');
    await tui.waitFor('Chat history');
    await tui.waitFor('Delete web');
    tui.keys('Enter');
    const reopened = await tui.waitFor('Understood, I left web alone.');
    expect(reopened).toContain('⚙ kubectl delete deployment web -n');
    expect(reopened).toMatch(/✗ ▸ rejected/);
  });

  it('takes the full width at 80×24, and tab goes back to the table', async () => {
    const tui = remote({ width: 80, height: 24 });
    await tui.waitFor(/web-\S+\s+Running/, 60_000);
    tui.keys('a');
    const open = await tui.waitFor('Press i to ask');
    expect(open).not.toMatch(/web-\S+\s+Running/);
    tui.keys('Tab');
    await tui.waitFor(/web-\S+\s+Running/);
    expect(tui.screen()).not.toContain('Press i to ask');
  });
});
