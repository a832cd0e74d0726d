import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import type { components } from '@pilothouse/wire/types';
import { ApiError } from '@pilothouse/wire/wire-client';
import type { Target } from '../api/types.js';
import type { Shell } from '../core/shell.js';

/** The object an apply sends (the API server checks the rest). */
type Manifest = components['schemas']['Manifest'];

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

/** A field another field manager owns, as a 409 CONFLICT of an apply names it. */
interface Conflict {
  field: string;
  manager: string;
}

/** The fields other managers own when the error is an apply conflict; rethrows any other failure. */
function conflictsOf(error: unknown): Conflict[] {
  const conflicts = error instanceof ApiError && error.code === 'CONFLICT' ? (error.details.conflicts as Conflict[] | undefined) : undefined;
  if (!conflicts || conflicts.length === 0) throw error;
  return conflicts;
}

/** A server-side dry run of the edited object: the conflicts it met (none: it would apply as is). */
async function dryRun(shell: Shell, target: Target, object: Manifest, force: boolean): Promise<Conflict[] | undefined> {
  const scope = { permission: 'execute_write' as const, namespace: target.namespace, resource: target.resource };
  const check = async (): Promise<Conflict[]> => {
    await shell.api.apply(target.resource, object, { dryRun: true, force });
    return [];
  };
  return shell.write(() => check().catch(conflictsOf), scope);
}

/** Whether to apply, and with force: the dry run passed, or it met conflicts that a forced dry run passes. */
async function reviewed(shell: Shell, target: Target, object: Manifest): Promise<{ force: boolean; question: string } | undefined> {
  const label = `${target.resource}/${target.name}`;
  const conflicts = await dryRun(shell, target, object, false);
  if (!conflicts) return undefined;
  if (conflicts.length === 0) return { force: false, question: shell.t('tui.confirm.apply', { object: label }) };
  if ((await dryRun(shell, target, object, true)) === undefined) return undefined;
  const fields = conflicts.map((conflict) => `${conflict.field} (${conflict.manager})`).join(', ');
  return { force: true, question: shell.t('tui.confirm.applyForce', { object: label, fields }) };
}

/**
 * `e`: the object's YAML in $EDITOR; the edited copy is a server-side apply like the web editor's
 * (POST /api/k8s/{resource}/apply): a dry run first, then, after a y/n, the apply. Fields that other
 * field managers own are named in the question and taken over only on y; an object changed since
 * it was read (its resourceVersion) answers CONFLICT.
 */
export async function editObject(shell: Shell, target: Target): Promise<void> {
  const original = await shell.api.yaml(target);
  const edited = await editedText(shell, target, original);
  if (edited === undefined) return shell.notice(shell.t('tui.notice.unchanged'));
  const object = yaml.load(edited) as Manifest;
  const review = await reviewed(shell, target, object);
  if (!review || !(await shell.confirm(review.question))) return;
  const scope = { permission: 'execute_write' as const, namespace: target.namespace, resource: target.resource };
  const applied = await shell.write(() => shell.api.apply(target.resource, object, { dryRun: false, force: review.force }), scope);
  if (applied) shell.notice(shell.t('tui.notice.applied', { object: `${target.resource}/${target.name}` }));
}
