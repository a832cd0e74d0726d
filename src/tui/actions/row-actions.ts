import type { Row, Target } from '../api/types.js';
import type { ActionPath } from '../api/pilothouse-api.js';
import type { ActionName } from '../core/key-map.js';
import type { Shell } from '../core/shell.js';
import { editObject } from './editor.js';
import { openShell } from './pod-shell.js';

/** The row an action works on, and the resource type it belongs to. */
export interface RowContext {
  resource: string;
  row: Row;
  namespace: string | undefined;
}

type RowAction = (shell: Shell, target: Target, context: RowContext) => Promise<void>;

const kindOf = (resource: string): string => resource.split('.')[0]?.replace(/s$/, '') ?? resource;
/** `deployment/web` (namespace `shop`): how a confirmation names the object. */
const objectName = (target: Target): string => `${kindOf(target.resource)}/${target.name}${target.namespace ? ` (${target.namespace})` : ''}`;

async function workloadAction(shell: Shell, target: Target, verb: string, extra: Record<string, unknown> = {}): Promise<void> {
  const kind = kindOf(target.resource);
  const body = { namespace: target.namespace, name: target.name, ...extra };
  const done = await shell.write(() => shell.api.action(`/api/${kind}/${verb}` as ActionPath, body), {
    permission: 'execute_write',
    namespace: target.namespace,
    resource: target.resource,
  });
  if (done) shell.notice(shell.t('tui.notice.done', { action: shell.t(`tui.key.${verb}`), object: objectName(target) }));
}

const scale: RowAction = async (shell, target, context) => {
  const current = String(context.row.ready ?? '').split('/')[1] ?? '';
  const answer = await shell.ask(shell.t('tui.prompt.replicas', { object: objectName(target) }), current);
  if (answer === undefined) return;
  const replicas = Number(answer);
  if (!/^\d+$/.test(answer.trim()) || replicas > 10_000) return shell.report(new Error(shell.t('tui.error.replicas', { value: answer })));
  if (!(await shell.confirm(shell.t('tui.confirm.scale', { object: objectName(target), replicas })))) return;
  await workloadAction(shell, target, 'scale', { replicas });
};

const confirmed =
  (verb: string): RowAction =>
  async (shell, target) => {
    if (!(await shell.confirm(shell.t(`tui.confirm.${verb}`, { object: objectName(target) })))) return;
    await workloadAction(shell, target, verb);
  };

const nodeAction =
  (verb: 'cordon' | 'uncordon'): RowAction =>
  async (shell, target) => {
    if (!(await shell.confirm(shell.t(`tui.confirm.${verb}`, { object: objectName(target) })))) return;
    const done = await shell.write(() => shell.api.action(`/api/node/${verb}`, { name: target.name }), { permission: 'execute_write', resource: 'nodes' });
    if (done) shell.notice(shell.t('tui.notice.done', { action: shell.t(`tui.key.${verb}`), object: objectName(target) }));
  };

const drain: RowAction = async (shell, target) => {
  if (!(await shell.confirm(shell.t('tui.confirm.drain', { object: objectName(target) })))) return;
  const id = await shell.write(() => shell.api.startDrain(target.name), { permission: 'execute_write', resource: 'nodes' });
  if (id) shell.push({ type: 'drain', node: target.name, id });
};

const remove: RowAction = async (shell, target) => {
  if (!(await shell.confirm(shell.t('tui.confirm.delete', { object: objectName(target) })))) return;
  const done = await shell.write(() => shell.api.remove(target).then(() => true), {
    permission: 'delete',
    namespace: target.namespace,
    resource: target.resource,
  });
  if (done) shell.notice(shell.t('tui.notice.deleted', { object: objectName(target) }));
};

const portForward: RowAction = async (shell, target) => {
  const answer = await shell.ask(shell.t('tui.prompt.portForward', { object: objectName(target) }));
  const match = /^\s*(?:(\d+):)?(\d+)\s*$/.exec(answer ?? '');
  if (!answer || !match) return;
  const body = { namespace: target.namespace ?? 'default', pod: target.name, podPort: Number(match[2]), localPort: Number(match[1] ?? 0) };
  const started = await shell.write(() => shell.api.portForward(body), { permission: 'execute_write', namespace: target.namespace, resource: 'pods' });
  if (started) shell.notice(shell.t('tui.notice.portForward', { address: started.address ?? `127.0.0.1:${started.localPort}`, object: objectName(target) }));
};

/** The Kubernetes kind of a resource (`deployments.apps` → `Deployment`), for an investigation's subject. */
const subjectKind = (resource: string): string => {
  const singular = kindOf(resource);
  const known: Record<string, string> = {
    statefulset: 'StatefulSet',
    daemonset: 'DaemonSet',
    replicaset: 'ReplicaSet',
    cronjob: 'CronJob',
    persistentvolumeclaim: 'PersistentVolumeClaim',
    configmap: 'ConfigMap',
    ingresse: 'Ingress',
  };
  return known[singular] ?? `${singular.charAt(0).toUpperCase()}${singular.slice(1)}`;
};

/** Asks the pilot to investigate the row's object (read-only); the Investigation runs on the server. */
const investigate: RowAction = async (shell, target) => {
  const question = await shell.ask(shell.t('tui.prompt.investigate', { object: objectName(target) }), `What is wrong with ${objectName(target)}?`);
  if (!question?.trim()) return;
  const subject = { kind: subjectKind(target.resource), name: target.name, ...(target.namespace ? { namespace: target.namespace } : {}) };
  const name = await shell.api.investigate({ question: question.trim(), subject });
  shell.notice(shell.t('tui.notice.investigate', { name, object: objectName(target) }));
};

const actions: Partial<Record<ActionName, RowAction>> = {
  describe: async (shell, target) => shell.push({ type: 'text', view: 'describe', title: objectName(target), load: () => shell.api.describe(target) }),
  yaml: async (shell, target) => shell.push({ type: 'text', view: 'yaml', title: objectName(target), load: () => shell.api.yaml(target) }),
  logs: async (shell, target) => shell.push({ type: 'logs', target }),
  edit: (shell, target) => editObject(shell, target),
  shell: (shell, target) => openShell(shell, target),
  portForward,
  investigate,
  delete: remove,
  scale,
  restart: confirmed('restart'),
  rollback: confirmed('rollback'),
  pause: confirmed('pause'),
  resume: confirmed('resume'),
  cordon: nodeAction('cordon'),
  uncordon: nodeAction('uncordon'),
  drain,
};

/** Runs a row action (describe, scale, delete, ...); errors go to the footer. */
export async function runRowAction(shell: Shell, action: ActionName, context: RowContext): Promise<boolean> {
  const run = actions[action];
  if (!run) return false;
  const target: Target = { resource: context.resource, name: context.row.name, namespace: context.row.namespace ?? context.namespace };
  try {
    await run(shell, target, context);
  } catch (error) {
    shell.report(error);
  }
  return true;
}
