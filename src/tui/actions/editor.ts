import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import type { Target } from '../api/types.js';
import type { Shell } from '../core/shell.js';

/** Runs $VISUAL / $EDITOR (default vi) on a file with the terminal handed over; resolves when it exits. */
function runEditor(file: string, environment: NodeJS.ProcessEnv): Promise<void> {
  const [command = 'vi', ...args] = (environment.VISUAL || environment.EDITOR || 'vi').split(/\s+/).filter(Boolean);
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, file], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
}

/** The edited text, or undefined when the editor left it unchanged. */
async function editedText(shell: Shell, target: Target, original: string): Promise<string | undefined> {
  const folder = mkdtempSync(join(tmpdir(), 'pilothouse-edit-'));
  const file = join(folder, `${target.name}.yaml`);
  try {
    writeFileSync(file, original, { mode: 0o600 });
    await shell.suspend(() => runEditor(file, process.env));
    const edited = readFileSync(file, 'utf8');
    return edited === original ? undefined : edited;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * `e`: the object's YAML in $EDITOR; the edited copy goes through a server-side dry run first
 * (PUT /api/k8s/{resource}/{name} with dryRun), then, after a y/n, is applied.
 */
export async function editObject(shell: Shell, target: Target): Promise<void> {
  const original = await shell.api.yaml(target);
  const edited = await editedText(shell, target, original);
  if (edited === undefined) return shell.notice(shell.t('tui.notice.unchanged'));
  const object = yaml.load(edited) as Record<string, unknown>;
  const scope = { permission: 'execute_write' as const, namespace: target.namespace, resource: target.resource };
  const checked = await shell.write(() => shell.api.replace(target, object, true), scope);
  if (!checked) return;
  if (!(await shell.confirm(shell.t('tui.confirm.apply', { object: `${target.resource}/${target.name}` })))) return;
  const applied = await shell.write(() => shell.api.replace(target, object, false), scope);
  if (applied) shell.notice(shell.t('tui.notice.applied', { object: `${target.resource}/${target.name}` }));
}
