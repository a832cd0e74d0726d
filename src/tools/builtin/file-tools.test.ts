import { mkdtemp, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../types.js';
import { createReadFileTool, createWriteFileTool } from './file-tools.js';

const context: ToolContext = { principal: { username: 'tester', role: 'admin', roles: [] } };
let base: string;
/** Config `tools.files.root`. */
let filesRoot: string;
/** The folder of `tester` (the context's user) below it: what the tools see. */
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'pilothouse-files-'));
  filesRoot = path.join(base, 'root');
  root = path.join(filesRoot, 'tester');
  outside = path.join(base, 'outside');
  await mkdir(root, { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'top secret');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const tools = (readLimit = 1024, writeLimit = 1024) => ({
  read: createReadFileTool({ root: filesRoot, readLimit, writeLimit }),
  write: createWriteFileTool({ root: filesRoot, readLimit, writeLimit }),
});

describe('read_file and write_file', () => {
  it('declare read-only and destructive', () => {
    expect(tools().read.definition).toMatchObject({ readOnly: true, destructive: false, type: 'read_file' });
    expect(tools().write.definition).toMatchObject({ readOnly: false, destructive: true, type: 'write_file' });
    expect(tools().write.definition.inputSchema).toMatchObject({ type: 'object', required: ['path', 'content'] });
  });

  it('write then read a file in nested new folders', async () => {
    const { read, write } = tools();
    expect(await write.run({ path: 'a/b/notes.txt', content: 'hello' }, context)).toMatchObject({ isError: false });
    expect(await read.run({ path: 'a/b/notes.txt' }, context)).toEqual({ output: 'hello', isError: false, truncated: false });
    expect(write.commandLine({ path: 'a/b/notes.txt', content: 'x' })).toBe('write_file a/b/notes.txt');
  });

  it('accepts an absolute path inside the root', async () => {
    const { read, write } = tools();
    await write.run({ path: path.join(root, 'x.txt'), content: 'inside' }, context);
    expect((await read.run({ path: path.join(root, 'x.txt') }, context)).output).toBe('inside');
  });

  it.each(['../outside/secret.txt', 'a/../../outside/secret.txt', '..'])('rejects traversal %j', async (requested) => {
    const { read, write } = tools();
    expect(await read.run({ path: requested }, context)).toMatchObject({ isError: true, output: expect.stringMatching(/\.\./) });
    expect((await write.run({ path: requested, content: 'x' }, context)).isError).toBe(true);
  });

  it('rejects an absolute path outside the root', async () => {
    const { read, write } = tools();
    expect(await read.run({ path: path.join(outside, 'secret.txt') }, context)).toMatchObject({ isError: true });
    expect(await write.run({ path: path.join(outside, 'new.txt'), content: 'x' }, context)).toMatchObject({ isError: true });
  });

  it('rejects reading through a symlink that leads outside', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    await symlink(outside, path.join(root, 'linkdir'));
    const { read } = tools();
    expect(await read.run({ path: 'link.txt' }, context)).toMatchObject({ isError: true, output: expect.stringMatching(/symlink/) });
    expect(await read.run({ path: 'linkdir/secret.txt' }, context)).toMatchObject({ isError: true });
  });

  it('rejects writing through a symlinked folder or onto a symlink', async () => {
    await symlink(outside, path.join(root, 'linkdir'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    const { write } = tools();
    expect(await write.run({ path: 'linkdir/new.txt', content: 'x' }, context)).toMatchObject({ isError: true });
    expect(await write.run({ path: 'linkdir/deeper/new.txt', content: 'x' }, context)).toMatchObject({ isError: true });
    expect(await write.run({ path: 'link.txt', content: 'overwritten' }, context)).toMatchObject({ isError: true });
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('allows a symlink that stays inside the root', async () => {
    await mkdir(path.join(root, 'real'));
    await writeFile(path.join(root, 'real', 'file.txt'), 'ok');
    await symlink(path.join(root, 'real'), path.join(root, 'alias'));
    expect((await tools().read.run({ path: 'alias/file.txt' }, context)).output).toBe('ok');
  });

  it('caps what is read and what is written', async () => {
    await writeFile(path.join(root, 'big.txt'), 'a'.repeat(5000));
    const { read, write } = tools(100, 10);
    const result = await read.run({ path: 'big.txt' }, context);
    expect(result).toMatchObject({ isError: false, truncated: true });
    expect(result.output).toBe(`${'a'.repeat(100)}\n[output truncated at 100 bytes]`);
    expect(await write.run({ path: 'x.txt', content: 'more than ten bytes' }, context)).toMatchObject({ isError: true });
  });

  it('reports missing files, folders and bad arguments as error results', async () => {
    const { read, write } = tools();
    expect(await read.run({ path: 'missing.txt' }, context)).toMatchObject({ isError: true, output: expect.stringMatching(/no such file/) });
    expect(await read.run({ path: '.' }, context)).toMatchObject({ isError: true });
    expect(await read.run({}, context)).toMatchObject({ isError: true, output: expect.stringMatching(/invalid arguments/) });
    expect(await write.run({ path: 'x.txt' }, context)).toMatchObject({ isError: true });
  });

  it("keeps each user's files in their own 0700 folder: another user's files are out of reach", async () => {
    const { read, write } = tools();
    const mallory: ToolContext = { principal: { username: 'Mallory.X', role: 'user', roles: [] } };
    await write.run({ path: 'notes.txt', content: 'tester only' }, context);
    expect(await read.run({ path: 'notes.txt' }, mallory)).toMatchObject({ isError: true });
    expect(await read.run({ path: '../tester/notes.txt' }, mallory)).toMatchObject({ isError: true });
    expect(await read.run({ path: path.join(root, 'notes.txt') }, mallory)).toMatchObject({ isError: true, output: expect.stringMatching(/outside/) });
    expect(await write.run({ path: 'notes.txt', content: 'mine' }, mallory)).toMatchObject({ isError: false });
    expect(await readFile(path.join(filesRoot, '%4Dallory%2E%58', 'notes.txt'), 'utf8')).toBe('mine');
    expect((await stat(path.join(filesRoot, '%4Dallory%2E%58'))).mode & 0o777).toBe(0o700);
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('tester only');
  });

  it('refuses a user folder that is a symlink', async () => {
    await symlink(outside, path.join(filesRoot, 'eve'));
    const eve: ToolContext = { principal: { username: 'eve', role: 'user', roles: [] } };
    expect(await tools().read.run({ path: 'secret.txt' }, eve)).toMatchObject({ isError: true });
  });
});
