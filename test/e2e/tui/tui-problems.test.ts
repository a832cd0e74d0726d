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

// `:problems` in the terminal UI end to end: `node bin/pilothouse tui` (dist/, built by `npx tsc -p tsconfig.build.json`)
// in a 120×40 tmux pane against the real test cluster: the broken pod's finding is listed, and p asks the pilot about it
// with the finding as the chat's context (the scripted model reads its evidence).

const namespace = useNamespace('tui-problems');
const program = join(rootDirectory, 'bin', 'pilothouse');
const kubectl = (...args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), args);
let service: TestService;
let wire: LlmWireServer;
let pane: TmuxPane | undefined;

function remote(): TmuxPane {
  const file = join(mkdtempSync(join(tmpdir(), 'ph-tui-problems-token-')), 'token');
  writeFileSync(file, service.adminToken, { mode: 0o600 });
  const argv = [process.execPath, program, 'tui', '--url', service.url, '--token-file', file, '-n', namespace.name, '--lang', 'en'];
  pane = TmuxPane.start(argv, { HOME: mkdtempSync(join(tmpdir(), 'ph-tui-problems-home-')) });
  return pane;
}

beforeAll(async () => {
  wire = await startLlmWireServer();
  service = await startTestService({
    config: { llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-tui-problems', max_retries: 0 } },
  });
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1\nkind: Pod\nmetadata: {name: tui-pull-fails}\nspec:\n  nodeName: kwok-node-0\n  containers: [{name: main, image: busybox}]`,
    namespace.name,
  );
  await waitFor(async () => (await kubectl('get', 'pod', 'tui-pull-fails', '-n', namespace.name, '-o', 'jsonpath={.status.phase}')) === 'Running', 60_000);
  const waiting = { reason: 'ImagePullBackOff', message: 'Back-off pulling image "registry.invalid/none:1"' };
  const status = {
    status: { phase: 'Running', containerStatuses: [{ name: 'main', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { waiting } }] },
  };
  await kubectl('patch', 'pod', 'tui-pull-fails', '-n', namespace.name, '--subresource=status', '--type=merge', '-p', JSON.stringify(status));
}, 120_000);

afterEach(() => {
  pane?.stop();
  pane = undefined;
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

describe('pilothouse tui :problems', () => {
  it('lists the broken pod’s finding, and p asks the pilot about it with the finding as context', { timeout: 120_000 }, async () => {
    const tui = remote();
    await tui.waitFor(/pods\(/, 60_000);
    tui.keys(':');
    tui.type('problems');
    tui.keys('Enter');
    await tui.waitFor(/problems\[\d+\]/);
    tui.keys('/');
    await tui.waitFor(/│\/\s/);
    tui.type('tui-pull-fails');
    await tui.waitFor(/│\/tui-pull-fails/);
    tui.keys('Enter');
    const listed = await tui.waitFor(new RegExp(`${namespace.name}\\s+Pod/tui-pull-fails\\s+critical\\s+ImagePullBackOff`), 60_000);
    expect(listed).toMatch(/problems\[1\]/);

    wire.script([{ text: ['Fix the image name.'] }]);
    tui.keys('p');
    await tui.waitFor('[ImagePullBackOff · Pod/tui-pull-fails] Ask:');
    tui.keys('Enter');
    await tui.waitFor('Fix the image name.', 60_000);
    const prompt = String((wire.chatRequests().at(-1)?.body as { messages: { content?: unknown }[] }).messages[0]?.content);
    expect(prompt).toContain(`critical finding on Pod ${namespace.name}/tui-pull-fails`);
    expect(prompt).toContain('- status.containerStatuses[main].state.waiting.reason: ImagePullBackOff');
  });
});
