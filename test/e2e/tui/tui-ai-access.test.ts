import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { rootDirectory } from '../../helpers/paths.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { TmuxPane } from '../../helpers/tmux.js';

// Issue 23, finding 7: the AI pilot pane of `pilothouse tui` (dist/, built by `npx tsc -p tsconfig.build.json`)
// offers, with `r`, the access request a write the user approved but the policy refused needs, and files it.

const namespace = useNamespace('tui-ai-access');
const program = join(rootDirectory, 'bin', 'pilothouse');
let service: TestService;
let wire: LlmWireServer;
let pane: TmuxPane | undefined;

beforeAll(async () => {
  wire = await startLlmWireServer();
  service = await startTestService({
    config: { llm: { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-tui-access', max_retries: 0 } },
  });
});

afterEach(() => {
  pane?.stop();
  pane = undefined;
});

afterAll(async () => {
  await Promise.all([service?.close(), wire?.close()]);
});

describe('the AI pilot pane offers the access request a refused write needs', () => {
  it('files it with r, with the scope of the refusal', { timeout: 120_000 }, async () => {
    const user = await service.createUser('user');
    wire.script([
      { toolCalls: [{ name: 'kubectl', arguments: { command: `create configmap tui-needs-grant -n ${namespace.name} --from-literal=a=b` } }] },
      { text: ['Refused by the policy.'] },
    ]);
    const file = join(mkdtempSync(join(tmpdir(), 'ph-tui-access-token-')), 'token');
    writeFileSync(file, user.token, { mode: 0o600 });
    const argv = [process.execPath, program, 'tui', '--url', service.url, '--token-file', file, '-n', namespace.name, '--lang', 'en'];
    const tui = (pane = TmuxPane.start(argv, { HOME: mkdtempSync(join(tmpdir(), 'ph-tui-access-home-')) }, { width: 220, height: 50 }));
    // The first screen (the signed-in user in the header): generous, the machine may be busy.
    await tui.waitFor(`user: ${user.username} (user)`, 60_000);
    tui.keys('a');
    await tui.waitFor('Press i to ask about your cluster', 60_000);
    tui.keys('i');
    await tui.waitFor('Ask:');
    tui.type('Create the ConfigMap');
    tui.keys('Enter');
    await tui.waitFor(/Approve\? y yes \/ n no/);
    tui.keys('y');
    await tui.waitFor('Refused by the policy.');
    await tui.waitFor(`needs an access request: execute_write on configmaps in ${namespace.name} (r requests it)`);
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'configmap', 'tui-needs-grant', '-n', namespace.name])).code).not.toBe(0);

    tui.keys('r');
    await tui.waitFor(`file an access request for execute_write on configmaps in ${namespace.name}?`);
    tui.keys('y');
    await tui.waitFor('Reason for the access request:');
    tui.type('the pilot needs it');
    tui.keys('Enter');
    await tui.waitFor('How long (TTL');
    tui.keys('Enter');
    const filed = await tui.waitFor(/Access request (\S+) filed \(Pending\)/);
    const id = /Access request (\S+) filed/.exec(filed)![1]!;

    const spec = JSON.parse(
      await runKubectl(clusterKubeconfig(), ['get', 'accessrequests.pilothouse.dev', id, '-n', service.namespace, '-o', 'jsonpath={.spec}']),
    );
    expect(spec).toMatchObject({ requester: user.username, permission: 'execute_write', namespaces: [namespace.name], resources: ['configmaps'], ttl: '1h' });
    expect(spec.reason).toBe('the pilot needs it');
  });
});
