import { mkdtemp, readFile, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userFolderName } from '../../../src/tools/builtin/user-files.js';
import { clusterKubeconfig, useNamespace } from '../../helpers/cluster.js';
import { chat, type ChatEvent, type ChatRun } from '../../helpers/chat-stream.js';
import { runKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Issue 23, finding 10: one tools.files.root was shared by every user's AI: one user read another's file,
// and planted a manifest an admin then applied by name. Now each user's AI sees only <root>/<user>/.

const namespace = useNamespace('files');
let service: TestService;
let wire: LlmWireServer;
let filesRoot: string;

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });
const plantedManifest = () => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: planted, namespace: ${namespace.name}}\ndata: {owner: mallory}\n`;

/** Approves every tool call that waits for approval, as the chat's owner. */
function approver(token: string) {
  return async (event: ChatEvent): Promise<void> => {
    if (event.event !== 'tool_request' || !event.data.requiresApproval || event.data.blocked) return;
    await service.api('POST', '/api/tool/approve', { token, body: { id: event.data.id, approved: true } });
  };
}

/** One chat turn of the token's owner in which the AI makes `calls`; the tool results in order. */
async function aiTurn(token: string, calls: ReturnType<typeof call>[]): Promise<{ status: string; result: string }[]> {
  wire.script([{ toolCalls: calls }, { text: ['Done.'] }]);
  const run: ChatRun = await chat(service, { message: 'Go', context: { namespace: namespace.name } }, { token, onEvent: approver(token) });
  return run.named('tool_execution').map((item) => ({ status: String(item.status), result: String(item.result) }));
}

async function configMapNames(): Promise<string> {
  return runKubectl(clusterKubeconfig(), ['get', 'configmaps', '-n', namespace.name, '-o', 'name']);
}

beforeAll(async () => {
  wire = await startLlmWireServer();
  filesRoot = await mkdtemp(join(tmpdir(), 'user-files-'));
  const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-files-test', max_retries: 0 };
  service = await startTestService({ config: { llm: llm as never, tools: { files: { root: filesRoot } } } });
});

afterAll(async () => {
  await service?.close();
  await wire?.close();
});

beforeEach(() => wire.reset());

describe("each user's AI has its own folder of the files root", () => {
  it("writes into the owner's 0700 folder; another user's AI cannot read it by name, by .. or by absolute path", async () => {
    const bob = await service.createUser('user');
    const alice = await service.createUser('user');
    expect(await aiTurn(bob.token, [call('write_file', { path: 'notes/diary.txt', content: 'bob only' })])).toEqual([
      { status: 'executed', result: expect.stringMatching(/wrote 8 bytes/) },
    ]);
    const bobFolder = join(filesRoot, userFolderName(bob.username));
    expect(await readFile(join(bobFolder, 'notes/diary.txt'), 'utf8')).toBe('bob only');
    expect((await stat(bobFolder)).mode & 0o777).toBe(0o700);
    const reads = await aiTurn(alice.token, [
      call('read_file', { path: 'notes/diary.txt' }),
      call('read_file', { path: `../${userFolderName(bob.username)}/notes/diary.txt` }),
      call('read_file', { path: join(bobFolder, 'notes/diary.txt') }),
    ]);
    expect(reads).toHaveLength(3);
    for (const read of reads) expect(read.result).not.toContain('bob only');
    expect((await aiTurn(bob.token, [call('read_file', { path: 'notes/diary.txt' })]))[0]).toEqual({ status: 'executed', result: 'bob only' });
  });

  it('a manifest planted by one user is not what an admin applies by name: the admin reads their own folder', async () => {
    const mallory = await service.createUser('user');
    const admin = await service.createUser('admin');
    await aiTurn(mallory.token, [call('write_file', { path: 'deploy.yaml', content: plantedManifest() })]);
    const applied = await aiTurn(admin.token, [call('kubectl', { command: `apply -f deploy.yaml -n ${namespace.name}` })]);
    expect(applied).toHaveLength(1);
    expect(applied[0]?.result).toMatch(/no such file|does not exist/);
    expect(await configMapNames()).not.toContain('configmap/planted');
    // The admin's own file of that name is the one applied.
    const own = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: admins-own, namespace: ${namespace.name}}\ndata: {owner: admin}\n`;
    await aiTurn(admin.token, [call('write_file', { path: 'deploy.yaml', content: own })]);
    expect((await aiTurn(admin.token, [call('kubectl', { command: `apply -f deploy.yaml -n ${namespace.name}` })]))[0]).toMatchObject({
      status: 'executed',
      result: expect.stringContaining('configmap/admins-own created'),
    });
    expect(await configMapNames()).not.toContain('configmap/planted');
  });

  it("refuses kubectl -f naming another user's folder by absolute path", async () => {
    const mallory = await service.createUser('user');
    const admin = await service.createUser('admin');
    await aiTurn(mallory.token, [call('write_file', { path: 'trap.yaml', content: plantedManifest() })]);
    const path = join(filesRoot, userFolderName(mallory.username), 'trap.yaml');
    const applied = await aiTurn(admin.token, [call('kubectl', { command: `apply -f ${path}` })]);
    expect(applied[0]?.result).toMatch(/outside the files? root/);
    expect(await configMapNames()).not.toContain('configmap/planted');
  });

  it("follows no symlink planted in the root in a user's place", async () => {
    const victim = await service.createUser('user');
    const other = await service.createUser('user');
    await aiTurn(other.token, [call('write_file', { path: 'x.txt', content: 'other' })]);
    await symlink(join(filesRoot, userFolderName(other.username)), join(filesRoot, userFolderName(victim.username)));
    const read = await aiTurn(victim.token, [call('read_file', { path: 'x.txt' })]);
    expect(read[0]?.result).not.toContain('other');
    expect(read[0]?.status).toBe('error');
  });
});
