import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { deploymentYaml } from '../../helpers/manifests.js';
import { rootDirectory } from '../../helpers/paths.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { TmuxPane } from '../../helpers/tmux.js';

// The terminal UI end to end: `node bin/pilothouse tui` (dist/, built by `npx tsc -p tsconfig.build.json`)
// in a 120×40 tmux pane against the real test cluster; keys in with send-keys, the screen out with capture-pane.

const namespace = useNamespace('tui');
const program = join(rootDirectory, 'bin', 'pilothouse');
let service: TestService;
let user: { username: string; password: string; token: string };
let pane: TmuxPane | undefined;

const kubectl = (args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), [...args, '-n', namespace.name]);
const replicas = async (): Promise<string> => kubectl(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}']);

function tokenFile(token: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ph-tui-token-')), 'token');
  writeFileSync(file, token, { mode: 0o600 });
  return file;
}

/** The TUI against the test service (remote mode), signed in with `token`, in namespace `namespace`. */
function remote(token: string, extra: string[] = [], options: { env?: Record<string, string>; size?: { width: number; height: number } } = {}): TmuxPane {
  pane = TmuxPane.start(
    [process.execPath, program, 'tui', '--url', service.url, '--token-file', tokenFile(token), '-n', namespace.name, ...extra],
    { HOME: mkdtempSync(join(tmpdir(), 'ph-tui-home-')), ...options.env },
    options.size,
  );
  return pane;
}

/** `:` then a command, once the command line is open (keys typed before it opens would go to the table). */
async function command(tui: TmuxPane, text: string): Promise<void> {
  tui.keys(':');
  await tui.waitFor(/^:/m);
  tui.type(text);
  tui.keys('Enter');
}

/** `/` then a filter or search, once its line is open. */
async function slash(tui: TmuxPane, text: string): Promise<void> {
  tui.keys('/');
  await tui.waitFor(/^[│|]\/ /m);
  tui.type(text);
  tui.keys('Enter');
}

/** The display column where each field starts (a field starts at a non-space after a space), per line. */
function fieldStarts(line: string): number[] {
  const starts: number[] = [];
  let cells = 0;
  let previous = ' ';
  for (const character of line) {
    if (character !== ' ' && previous === ' ') starts.push(cells);
    cells += stringWidth(character);
    previous = character;
  }
  return starts;
}

/** The table's lines (header and rows) inside the border: the lines after the title, up to the first blank row. */
function tableLines(screen: string, header: string): string[] {
  const lines = screen.split('\n').map((line) =>
    line
      .replace(/^[│|]/, '')
      .replace(/[│|]\s*$/, '')
      .trimEnd(),
  );
  const start = lines.findIndex((line) => line.startsWith(header));
  const rest = lines.slice(start);
  const end = rest.findIndex((line) => line.trim() === '');
  return end < 0 ? rest : rest.slice(0, end);
}

beforeAll(async () => {
  service = await startTestService();
  user = await service.createUser('user');
  await applyYaml(clusterKubeconfig(), deploymentYaml('web'), namespace.name);
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: talker\n  labels: {app: talker}\n  annotations:\n    pilothouse.dev/logs: "hello from talker\\nsecond line"\nspec:\n  containers:\n  - {name: main, image: busybox}`,
    namespace.name,
  );
  await waitFor(async () => (await kubectl(['get', 'pod', 'talker', '-o', 'jsonpath={.status.phase}'])) === 'Running');
});

afterEach(() => {
  pane?.stop();
  pane = undefined;
});

afterAll(async () => {
  await service?.close();
});

describe('pilothouse tui against a remote Pilothouse', () => {
  it('lists the pods of a namespace live, filters them, describes one and shows its logs', async () => {
    const tui = remote(service.adminToken);
    await tui.waitFor(/talker\s+Running/);
    const first = await tui.waitFor(/user: admin \(admin\)/);
    expect(first).toMatch(new RegExp(`pods\\(${namespace.name}\\)\\[2\\]`));
    expect(first).toMatch(/health: healthy/);
    expect(first).toMatch(/web-\S+\s+Running/);

    await slash(tui, 'talk');
    await tui.waitFor(new RegExp(`pods\\(${namespace.name}\\)\\[1\\] /talk`));
    expect(tui.screen()).not.toMatch(/web-\S+\s+Running/);

    tui.keys('d');
    const described = await tui.waitFor(/Name:\s+talker/);
    expect(described).toMatch(new RegExp(`Namespace:\\s+${namespace.name}`));
    tui.keys('Escape');
    await tui.waitFor(/talker\s+Running/);

    tui.keys('l');
    const logs = await tui.waitFor('hello from talker');
    expect(logs).toContain('second line');
    expect(logs).toMatch(/logs: talker \[main\]/);

    tui.keys('Escape');
    await tui.waitFor(/talker\s+Running/);
    await slash(tui, '-l app=talker');
    await tui.waitFor(new RegExp(`\\[1\\] /-l app=talker`));
  });

  it('scales a deployment after a replicas prompt and a y/n, and the row shows the change', async () => {
    const tui = remote(service.adminToken);
    await tui.waitFor(/talker\s+Running/);
    await command(tui, 'deploy');
    await tui.waitFor(/web\s+1\/1/);
    tui.keys('s');
    await tui.waitFor(/Replicas for deployment\/web/);
    tui.keys('BSpace');
    tui.type('2');
    tui.keys('Enter');
    await tui.waitFor(/Scale deployment\/web \(.*\) to 2 replicas\? \(y\/n\)/);
    tui.keys('y');
    await tui.waitFor(/web\s+2\/2/);
    expect(await replicas()).toBe('2');
  });

  it('selects a prompt’s default, so the first typed key replaces it (2 replicas, then 3 scales to 3, not 23)', async () => {
    await kubectl(['scale', 'deployment', 'web', '--replicas=2']);
    // Colours on even under CI=true (supports-color turns them off for an unknown CI), so the inverse can be seen.
    const tui = remote(service.adminToken, [], { env: { FORCE_COLOR: '1' } });
    await tui.waitFor(/talker\s+Running/);
    await command(tui, 'deploy');
    await tui.waitFor(/web\s+2\/2/);
    tui.keys('s');
    await tui.waitFor(/Replicas for deployment\/web.*: 2/);
    // The default is drawn selected (inverse), as a form's number field is.
    await expect.poll(() => tui.colouredScreen(), { timeout: 5_000 }).toMatch(/\x1b\[[0-9;]*7[0-9;]*m2/);
    tui.type('3');
    tui.keys('Enter');
    await tui.waitFor(/Scale deployment\/web \(.*\) to 3 replicas\? \(y\/n\)/);
    tui.keys('y');
    await tui.waitFor(/web\s+3\/3/);
    expect(await replicas()).toBe('3');
  });

  it('edits a deployment in $EDITOR as a server-side apply: the dry run names the fields other managers own, y forces the apply', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ph-tui-editor-'));
    const editor = join(folder, 'editor.sh');
    writeFileSync(editor, `#!/bin/sh\nsed -i 's/^  replicas: .*/  replicas: 4/' "$1"\n`, { mode: 0o755 });
    const tui = remote(service.adminToken, [], { env: { EDITOR: editor } });
    await tui.waitFor(/talker\s+Running/);
    await command(tui, 'deploy');
    await tui.waitFor(/web\s+\d\/\d/);
    tui.keys('e');
    await tui.waitFor(/Owned by other managers: \.spec\.replicas \([\w-]+\)\. Force apply to deployments\.apps\/web\? \(y\/n\)/);
    expect(await replicas()).not.toBe('4');
    tui.keys('y');
    await tui.waitFor(/Applied your changes to deployments\.apps\/web/);
    await tui.waitFor(/web\s+4\/4/);
    expect(await replicas()).toBe('4');
  });

  it('shows YAML with search, and opens a shell in a pod that ctrl-\\ detaches from', async () => {
    const tui = remote(service.adminToken);
    await tui.waitFor(/talker\s+Running/);
    await slash(tui, 'talker');
    await tui.waitFor(/\[1\] \/talker/);
    tui.keys('y');
    await tui.waitFor(/yaml: pod\/talker/);
    await tui.waitFor(/^│?kind: Pod/m);
    await slash(tui, 'restartPolicy');
    await tui.waitFor(/restartPolicy: Always/);
    tui.keys('Escape');
    await tui.waitFor(/talker\s+Running/);

    tui.keys('s');
    await tui.waitFor(/Shell in talker \[main\]/);
    tui.type('echo tui-$((20+3))');
    tui.keys('Enter');
    await tui.waitFor(/^tui-23/m);
    tui.keys('C-\\');
    await tui.waitFor(/talker\s+Running/);
    expect(tui.screen()).toMatch(/pods\(/);

    // Keys still reach the UI after a detach, twice in a row (they were echoed as text once the socket closed).
    for (const round of [1, 2]) {
      tui.keys('s');
      await tui.waitFor(/Shell in talker \[main\]/);
      tui.type(`echo round-$((${round}+40))`);
      tui.keys('Enter');
      await tui.waitFor(new RegExp(`^round-${round + 40}`, 'm'));
      tui.keys('C-\\');
      await tui.waitFor(/talker\s+Running/);
      tui.keys('y');
      await tui.waitFor(/yaml: pod\/talker/);
      tui.keys('Escape');
      await tui.waitFor(/talker\s+Running/);
    }
  });

  it('deletes a pod only after a confirmation that names it', async () => {
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: v1\nkind: Pod\nmetadata: {name: doomed}\nspec:\n  containers:\n  - {name: main, image: busybox}`,
      namespace.name,
    );
    const tui = remote(service.adminToken);
    await tui.waitFor(/doomed/);
    await slash(tui, 'doomed');
    await tui.waitFor(/\[1\] \/doomed/);
    tui.keys('C-d');
    await tui.waitFor(new RegExp(`Delete pod/doomed \\(${namespace.name}\\)\\? \\(y/n\\)`));
    tui.keys('n');
    // The decline was handled (the question is gone) and the next delete asks again: the pod was left alone.
    await tui.waitForGone('Delete pod/doomed');
    tui.keys('C-d');
    await tui.waitFor(/Delete pod\/doomed/);
    expect((await kubectl(['get', 'pod', 'doomed', '-o', 'jsonpath={.metadata.name} {.metadata.deletionTimestamp}'])).trim()).toBe('doomed');
    tui.keys('y');
    await tui.waitFor(/Deleted pod\/doomed/);
    await waitFor(async () => (await runKubectl(clusterKubeconfig(), ['get', 'pods', '-n', namespace.name, '-o', 'name'])).includes('doomed') === false);
  });

  it('turns an approval-required write into a just-in-time access request, filed in place', async () => {
    const tui = remote(user.token);
    await tui.waitFor(new RegExp(`user: ${user.username} \\(user\\)`));
    await command(tui, 'deploy');
    await tui.waitFor(/web\s+\d\/\d/);
    tui.keys('r');
    await tui.waitFor(/Restart deployment\/web/);
    tui.keys('y');
    await tui.waitFor(/Needs approval: file an access request for execute_write on deployments/);
    tui.keys('y');
    await tui.waitFor(/Reason for the access request:/);
    tui.type('rolling the web tier');
    tui.keys('Enter');
    await tui.waitFor(/How long \(TTL/);
    tui.keys('Enter');
    await tui.waitFor(/Access request \S+ filed \(Pending\)/);
    await tui.waitFor(/pending requests: 1/);

    const requests = await service.api('GET', '/api/access-requests', { token: user.token });
    expect(requests.body.items[0]).toMatchObject({
      permission: 'execute_write',
      namespaces: [namespace.name],
      resources: ['deployments'],
      reason: 'rolling the web tier',
      ttl: '1h',
      phase: 'Pending',
    });
    tui.keys('x');
    await tui.waitFor(/access requests\[1\]/);
    expect(tui.screen()).toMatch(/Pending\s+execute_write/);
  });

  it('lets an admin approve a pending access request from its list, naming the requester, with a comment', async () => {
    const filed = await service.api('POST', '/api/access-requests', {
      token: user.token,
      body: { permission: 'execute_write', namespaces: [namespace.name], resources: ['configmaps'], reason: 'tui review', ttl: '30m' },
    });
    expect(filed.status).toBe(201);
    const id: string = filed.body.id;
    const tui = remote(service.adminToken);
    await tui.waitFor(/talker\s+Running/);
    tui.keys('x');
    await tui.waitFor(new RegExp(`${id}\\s+${user.username}\\s+Pending`));
    await slash(tui, id);
    await tui.waitFor(new RegExp(`\\[1\\] /${id}`));
    tui.keys('y');
    await tui.waitFor(new RegExp(`Approve ${id} of ${user.username}: execute_write on ${namespace.name}`));
    tui.keys('y');
    await tui.waitFor(new RegExp(`Comment for ${user.username}`));
    tui.type('go ahead');
    tui.keys('Enter');
    await tui.waitFor(new RegExp(`Access request ${id}: Approved`));
    const decided = await service.api('GET', `/api/access-requests/${id}`, { token: service.adminToken });
    expect(decided.body).toMatchObject({ phase: 'Approved', reviewer: 'admin', message: 'go ahead' });
  });

  it('hides every write key under --readonly', async () => {
    const tui = remote(service.adminToken, ['--readonly']);
    await tui.waitFor(/\[read-only\]/);
    tui.keys('?');
    const help = await tui.waitFor(/Keys of the pods view/);
    expect(help).toContain('<d>');
    expect(help).toContain('<l>');
    for (const hidden of ['<ctrl-d>', '<s>', '<e>', '<shift-f>']) expect(help).not.toContain(hidden);
    tui.keys('Escape');
    await tui.waitForGone('Keys of the pods view');
    // Keys are handled in order: once `?` after ctrl-d shows the help again, ctrl-d was handled and asked nothing
    // (a question on the footer would have taken the `?`).
    tui.keys('C-d', '?');
    const after = await tui.waitFor(/Keys of the pods view/);
    expect(after).not.toContain('Delete pod/');
  });

  it('asks for the password without echo, and a 401 sends the user back to the login prompt', async () => {
    pane = TmuxPane.start([process.execPath, program, 'tui', '--url', service.url, '--username', user.username, '-n', namespace.name], {
      HOME: mkdtempSync(join(tmpdir(), 'ph-tui-home-')),
    });
    const tui = pane;
    // --username named the user: only the password is asked.
    await tui.waitFor(/Password \(not shown\):/);
    expect(tui.screen()).not.toMatch(/Username:/);
    tui.type('wrong-password');
    tui.keys('Enter');
    // The refusal stays on the next prompt instead of flashing on the footer for a moment.
    await tui.waitFor(/invalid[^\n]*Password \(not shown\):/i);
    tui.type(user.password);
    expect(tui.screen()).not.toContain(user.password);
    tui.keys('Enter');
    await tui.waitFor(/talker\s+Running/);
    expect(tui.screen()).toContain(`${user.username} (user)`);

    // Ending every session of the user turns the next request into a 401.
    const ended = await service.api('DELETE', `/api/admin/users/${user.username}/sessions`, { token: service.adminToken });
    expect(ended.status).toBe(200);
    await tui.waitFor(/Password \(not shown\):/, 30_000);
    // esc on the password of a fixed user asks for another user.
    tui.keys('Escape');
    await tui.waitFor(/Username:/);
  });
});

describe('pilothouse tui on nodes', () => {
  const node = uniqueName('tui-node');

  beforeAll(async () => {
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: v1\nkind: Node\nmetadata:\n  name: ${node}\n  annotations: {kwok.x-k8s.io/node: fake}\n  labels: {kubernetes.io/hostname: ${node}, type: kwok}\nspec:\n  taints: [{key: pilothouse.dev/tui-test, value: "true", effect: NoSchedule}]`,
    );
    const resources = { cpu: '8', memory: '16Gi', pods: '110' };
    await runKubectl(clusterKubeconfig(), [
      'patch',
      'node',
      node,
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: { capacity: resources, allocatable: resources } }),
    ]);
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: pinned}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: pinned}}\n  template:\n    metadata: {labels: {app: pinned}}\n    spec:\n      nodeName: ${node}\n      containers: [{name: main, image: busybox}]`,
      namespace.name,
    );
  });

  afterAll(async () => {
    await runKubectl(clusterKubeconfig(), ['delete', 'deployment', 'pinned', '-n', namespace.name, '--ignore-not-found']).catch(() => '');
    await runKubectl(clusterKubeconfig(), ['delete', 'node', node, '--ignore-not-found']).catch(() => '');
  });

  it('cordons and uncordons a node, and drains it with live progress', async () => {
    const tui = remote(service.adminToken);
    await tui.waitFor(/talker\s+Running/);
    await command(tui, 'nodes');
    await tui.waitFor(new RegExp(`${node}\\s+Ready`));
    await slash(tui, node);
    await tui.waitFor(/nodes\[1\]/);
    tui.keys('c');
    await tui.waitFor(new RegExp(`Cordon node/${node}\\? \\(y/n\\)`));
    tui.keys('y');
    await tui.waitFor(new RegExp(`${node}\\s+Ready,Sched`));
    tui.keys('u');
    await tui.waitFor(new RegExp(`Uncordon node/${node}\\?`));
    tui.keys('y');
    await tui.waitFor(new RegExp(`${node}\\s+Ready\\s`));
    tui.keys('r');
    await tui.waitFor(new RegExp(`Drain node/${node}`));
    tui.keys('y');
    const progress = await tui.waitFor(/drain completed: 1 pods evicted/, 40_000);
    expect(progress).toContain(`cordoned ${node}`);
    expect(progress).toMatch(new RegExp(`evicted ${namespace.name}/pinned-`));
  });
});

describe('pilothouse tui in a small or plain terminal', () => {
  it('fits 80×24 and draws ASCII borders with --ascii', async () => {
    const tui = remote(service.adminToken, ['--ascii'], { size: { width: 80, height: 24 } });
    const screen = await tui.waitFor(/talker\s+Running/);
    const lines = screen.split('\n');
    expect(lines[1]).toMatch(/^\+-+\+$/);
    expect(screen).not.toMatch(/[╭╮╰╯│─]/);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(80);
    expect(lines.filter((line) => line.length > 0).length).toBeLessThanOrEqual(24);
    tui.keys('?');
    const help = await tui.waitFor(/Keys of the pods view/);
    expect(help).toContain('<ctrl-c>');
    tui.keys('Escape');
    tui.resize(100, 30);
    await tui.waitFor(new RegExp(`^\\+-{98}\\+$`, 'm'));
    const resized = await tui.waitFor(/talker\s+Running/);
    for (const line of resized.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(100);
  });
});

describe('pilothouse tui in Korean, Japanese and Chinese', () => {
  const cases = [
    { lang: 'ko', header: '이름', title: '네임스페이스' },
    { lang: 'ja', header: '名前', title: '名前空間' },
    { lang: 'zh', header: '名称', title: '命名空间' },
  ];
  for (const { lang, header, title } of cases) {
    it(`shows the same pods in ${lang} with columns aligned by display width`, async () => {
      const tui = remote(service.adminToken, ['--lang', lang, '-A']);
      const pods = (await kubectl(['get', 'pods', '-o', 'name'])).split('\n').filter(Boolean);
      const screen = await tui.waitFor(new RegExp(`talker\\s+Running`));
      expect(screen).toContain(title);
      const lines = tableLines(screen, title);
      expect(lines[0]).toContain(header);
      const mine = lines.filter((line) => line.includes(namespace.name));
      expect(mine.length).toBe(pods.length);
      const starts = fieldStarts(lines[0] ?? '');
      for (const line of mine) expect(fieldStarts(line).slice(0, starts.length), line).toEqual(starts);
      tui.keys('?');
      await tui.waitFor(lang === 'ko' ? '화면의 키' : lang === 'ja' ? '画面のキー' : '视图的按键');
    });
  }
});

describe('pilothouse tui without --url', () => {
  it('starts an embedded Pilothouse against the current kubeconfig context and stops it on q', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ph-tui-home-'));
    pane = TmuxPane.start([process.execPath, program, 'tui', '-n', namespace.name], {
      HOME: home,
      KUBECONFIG: clusterKubeconfig(),
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
    });
    await pane.waitFor(/talker\s+Running/, 60_000);
    const screen = await pane.waitFor(/user: anonymous \(admin\)/);
    expect(screen).toMatch(/ctx: \S+/);
    pane.keys('q');
    await pane.waitFor(/\[exited 0\]/, 30_000);
  });
});
