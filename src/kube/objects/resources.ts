import { spawn } from 'node:child_process';
import * as yaml from 'js-yaml';
import { AppError, validation } from '../../errors.js';
import { scrubToolMessage } from '../../redact.js';
import type { KubeIdentityClient } from '../clients.js';
import { objectPath, type ResourceType } from '../discovery.js';

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; managedFields?: unknown; [key: string]: unknown };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  [key: string]: unknown;
}

export interface ObjectReference {
  kind: string;
  name: string;
  namespace?: string;
  apiVersion: string;
}

/** The namespace argument, required for namespaced kinds on object routes. */
export function requireNamespace(type: ResourceType, namespace: string | undefined): string | undefined {
  if (type.namespaced && !namespace) {
    throw validation(`namespace is required for ${type.plural}`, { fields: { namespace: 'required' } });
  }
  return type.namespaced ? namespace : undefined;
}

/** Reads one object as JSON. */
export function getObject(client: KubeIdentityClient, type: ResourceType, name: string, namespace?: string): Promise<KubeObject> {
  return client.rest.json<KubeObject>('GET', objectPath(type, name, namespace), { target: `${type.plural}/${name}` });
}

/** The object as `kubectl get -o yaml` prints it (managedFields stripped). */
export function toYaml(object: KubeObject): string {
  const metadata = { ...object.metadata };
  delete metadata.managedFields;
  return yaml.dump({ ...object, metadata }, { noRefs: true, lineWidth: -1 });
}

/** Deletes an object and returns its reference. */
export async function deleteObject(client: KubeIdentityClient, type: ResourceType, name: string, namespace?: string): Promise<ObjectReference> {
  await client.rest.json('DELETE', objectPath(type, name, namespace), {
    body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' },
    target: `${type.plural}/${name}`,
  });
  const apiVersion = type.group ? `${type.group}/${type.version}` : type.version;
  return { kind: type.kind, name, ...(namespace ? { namespace } : {}), apiVersion };
}

export interface KubectlInvocation {
  kubectlPath: string;
  kubeconfigPath?: string;
  context?: string;
  impersonate?: string;
  /** Groups to impersonate with `impersonate` (kubectl `--as-group`). */
  impersonateGroups?: readonly string[];
  timeoutMs?: number;
}

/** Where a cluster command goes and as whom: what kubectl and helm calls both carry. */
export type ClusterIdentity = Pick<KubectlInvocation, 'kubeconfigPath' | 'context' | 'impersonate' | 'impersonateGroups'>;

/** The arguments of a {@link ClusterIdentity}, by the command's own flag names (`--kubeconfig` is the same in both). */
export function clusterIdentityArgs(identity: ClusterIdentity, flags: { context: string; user: string; group: string }): string[] {
  const args: string[] = [];
  if (identity.kubeconfigPath) args.push('--kubeconfig', identity.kubeconfigPath);
  if (identity.context) args.push(flags.context, identity.context);
  if (identity.impersonate) args.push(flags.user, identity.impersonate);
  for (const group of identity.impersonateGroups ?? []) args.push(flags.group, group);
  return args;
}

/** Arguments every kubectl call of ours carries: kubeconfig, context and identity. */
export function kubectlGlobalArgs(invocation: KubectlInvocation): string[] {
  return clusterIdentityArgs(invocation, { context: '--context', user: '--as', group: '--as-group' });
}

/** `kubectl describe` text from the real kubectl, run with the request's identity. */
export function describeObject(invocation: KubectlInvocation, type: ResourceType, name: string, namespace?: string): Promise<string> {
  const resource = type.group ? `${type.plural}.${type.group}` : type.plural;
  const args = [...kubectlGlobalArgs(invocation), 'describe', resource, name];
  if (namespace) args.push('-n', namespace);
  return runKubectl(invocation, args);
}

/** Runs kubectl with argv (no shell); rejects with K8S_ERROR/NOT_FOUND/FORBIDDEN on failure. */
export function runKubectl(invocation: KubectlInvocation, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(invocation.kubectlPath, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: invocation.timeoutMs ?? 30_000 });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const privatePaths = [invocation.kubeconfigPath, invocation.kubectlPath];
    child.on('error', (error) => reject(new AppError('K8S_ERROR', 'cannot run kubectl', { reason: scrubToolMessage(error.message, privatePaths) })));
    child.on('close', (code) => {
      if (code === 0) return resolve(Buffer.concat(stdout).toString('utf8'));
      reject(kubectlFailure(scrubToolMessage(Buffer.concat(stderr).toString('utf8').trim(), privatePaths)));
    });
  });
}

/** Maps kubectl's (already scrubbed) stderr to a contract error. */
function kubectlFailure(message: string): AppError {
  if (/NotFound|not found/.test(message)) return new AppError('NOT_FOUND', message, { message });
  if (/Forbidden|forbidden/.test(message)) return new AppError('FORBIDDEN', message, { message });
  return new AppError('K8S_ERROR', 'kubectl failed', { message });
}
