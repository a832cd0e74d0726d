import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { rootDirectory } from '../../helpers/paths.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { TmuxPane } from '../../helpers/tmux.js';

// Issue 39, item 21 (TUI in tmux): `:lang ko` and `:lang en` switch the language while the UI runs, the header's
// health value included (`상태: 정상`, from the shared catalogue in locales/).
const namespace = useNamespace('tui-lang');
const program = join(rootDirectory, 'bin', 'pilothouse');
let service: TestService;
let pane: TmuxPane | undefined;

function tokenFile(token: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ph-tui-token-')), 'token');
  writeFileSync(file, token, { mode: 0o600 });
  return file;
}

/** `:` then a command, once the command line is open. */
async function command(tui: TmuxPane, text: string): Promise<void> {
  tui.keys(':');
  await tui.waitFor(/^:/m);
  tui.type(text);
  tui.keys('Enter');
}

beforeAll(async () => {
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: lang-pod\nspec:\n  containers:\n  - {name: main, image: busybox}`,
    namespace.name,
  );
  await waitFor(
    async () => (await runKubectl(clusterKubeconfig(), ['get', 'pod', 'lang-pod', '-n', namespace.name, '-o', 'jsonpath={.status.phase}'])) === 'Running',
    60_000,
  );
  service = await startTestService();
});

afterEach(() => {
  pane?.stop();
  pane = undefined;
});

afterAll(async () => {
  await service?.close();
});

describe('pilothouse tui: the language at run time', () => {
  it(':lang ko switches every string, the health value too; :lang en switches back; an unknown language says which exist', async () => {
    pane = TmuxPane.start(
      [process.execPath, program, 'tui', '--lang', 'en', '--url', service.url, '--token-file', tokenFile(service.adminToken), '-n', namespace.name],
      { HOME: mkdtempSync(join(tmpdir(), 'ph-tui-home-')), LANG: 'C.UTF-8' },
    );
    const tui = pane;
    await tui.waitFor(/lang-pod\s+Running/);
    const english = await tui.waitFor(/health: (healthy|degraded)/);
    const status = /health: (healthy|degraded)/.exec(english)?.[1];

    await command(tui, 'lang ko');
    const korean = await tui.waitFor('언어: 한국어');
    const word = status === 'healthy' ? '정상' : '저하됨';
    expect(await tui.waitFor(`상태: ${word}`)).toContain('네임스페이스');
    expect(korean).not.toMatch(/health: /);

    await command(tui, 'lang xx');
    await tui.waitFor('알 수 없는 언어 "xx"');

    await command(tui, 'lang en');
    await tui.waitFor('Language: English');
    expect(await tui.waitFor(`health: ${status}`)).toMatch(/ns: /);
  });
});
