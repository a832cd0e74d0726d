import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as yaml from 'js-yaml';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { AppError } from '../errors.js';

/** A cluster's connection, checked: the kubeconfig with `context` as its current context. */
export interface ClusterKubeconfig {
  kubeConfig: KubeConfig;
  context: string;
}

export interface ClusterKubeconfigOptions {
  /** The context to use; default the kubeconfig's `current-context`. */
  context?: string;
  /**
   * Only inline data (ADR 0035, cluster Secrets): no `exec` or `auth-provider` plugins, no file references.
   * Every cluster and user entry may hold only the keys below, so a key added to kubeconfig later is refused too.
   */
  inlineOnly?: boolean;
}

/** What a cluster entry of an inline-only kubeconfig may hold. */
const inlineClusterKeys = new Set(['server', 'certificate-authority-data', 'insecure-skip-tls-verify', 'tls-server-name', 'disable-compression', 'extensions']);
/** What a user entry of an inline-only kubeconfig may hold (no `exec`, `auth-provider`, `client-certificate`, `client-key`, `tokenFile`, ...). */
const inlineUserKeys = new Set([
  'token',
  'client-certificate-data',
  'client-key-data',
  'username',
  'password',
  'as',
  'as-uid',
  'as-groups',
  'as-user-extra',
  'extensions',
]);

type Entry = { name?: unknown; cluster?: unknown; user?: unknown; context?: unknown };
type RawKubeconfig = { clusters?: unknown; users?: unknown; contexts?: unknown; 'current-context'?: unknown };

function refuse(reason: string): AppError {
  return new AppError('VALIDATION_ERROR', reason);
}

/** The YAML document; a syntax error names its line only (the text around it may be a credential). */
function parseYaml(text: string): RawKubeconfig {
  let document: unknown;
  try {
    document = yaml.load(text);
  } catch (error) {
    const line = (error as { mark?: { line?: number } }).mark?.line;
    throw refuse(`the kubeconfig is not valid YAML${line === undefined ? '' : ` (line ${line + 1})`}`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw refuse('the kubeconfig is not a YAML mapping');
  return document as RawKubeconfig;
}

function entries(document: RawKubeconfig, key: 'clusters' | 'users' | 'contexts'): Entry[] {
  const list = document[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw refuse(`the kubeconfig's "${key}" is not a list`);
  return list.map((entry) => (typeof entry === 'object' && entry !== null ? (entry as Entry) : {}));
}

function fields(value: unknown): string[] {
  return typeof value === 'object' && value !== null ? Object.keys(value) : [];
}

/** Refuses every key outside the allowed set, naming the entry and the key (never a value). */
function checkInline(kind: 'cluster' | 'user', list: Entry[], allowed: Set<string>): void {
  for (const entry of list) {
    const key = fields(entry[kind]).find((field) => !allowed.has(field));
    if (key === undefined) continue;
    throw refuse(`${kind} "${String(entry.name)}" uses "${key}": a cluster Secret may hold inline credentials only (no plugins, no files)`);
  }
}

/** The context to use and the names it refers to, checked against the kubeconfig's entries. */
function pickContext(document: RawKubeconfig, wanted: string | undefined): string {
  const name = wanted ?? document['current-context'];
  if (typeof name !== 'string' || name === '') throw refuse('the kubeconfig names no context (no current-context, and none was given)');
  const context = entries(document, 'contexts').find((entry) => entry.name === name);
  if (!context) throw refuse(`context "${name}" is not in the kubeconfig`);
  const { cluster, user } = (context.context ?? {}) as { cluster?: unknown; user?: unknown };
  if (!entries(document, 'clusters').some((entry) => entry.name === cluster)) throw refuse(`context "${name}" names a cluster the kubeconfig does not have`);
  if (user !== undefined && user !== '' && !entries(document, 'users').some((entry) => entry.name === user)) {
    throw refuse(`context "${name}" names a user the kubeconfig does not have`);
  }
  return name;
}

function checkServer(kubeConfig: KubeConfig, context: string): void {
  const server = kubeConfig.getCurrentCluster()?.server ?? '';
  let protocol = '';
  try {
    protocol = new URL(server).protocol;
  } catch {
    // an unparsable URL is refused below
  }
  if (protocol !== 'https:' && protocol !== 'http:') throw refuse(`the cluster of context "${context}" has no http(s) server URL`);
}

/**
 * Checks a cluster's kubeconfig text and loads it (ADR 0035): it parses, has the context (the given one or its
 * current-context) with that context's cluster and user, the cluster has an http(s) server; with `inlineOnly`
 * (cluster Secrets) every cluster and user entry holds inline data only, checked before anything is loaded, so a
 * refused kubeconfig never reads a file or runs a program. Throws AppError `VALIDATION_ERROR` whose message names
 * the reason and entry names only, never a value of the kubeconfig (safe to log).
 */
export function parseClusterKubeconfig(text: string, options: ClusterKubeconfigOptions = {}): ClusterKubeconfig {
  const document = parseYaml(text);
  for (const key of ['clusters', 'users', 'contexts'] as const) entries(document, key);
  const context = pickContext(document, options.context);
  if (options.inlineOnly) {
    checkInline('cluster', entries(document, 'clusters'), inlineClusterKeys);
    checkInline('user', entries(document, 'users'), inlineUserKeys);
  }
  const kubeConfig = new KubeConfig();
  try {
    kubeConfig.loadFromString(text);
  } catch (error) {
    throw refuse(`the kubeconfig is not valid: ${error instanceof Error && !options.inlineOnly ? error.message : 'an entry is incomplete'}`);
  }
  kubeConfig.setCurrentContext(context);
  checkServer(kubeConfig, context);
  return { kubeConfig, context };
}

/**
 * A kubeconfig file of `clusters:` (config): the same checks without `inlineOnly`; its file references are
 * resolved against the file's folder, as kubectl does. A file that cannot be read is refused with its path.
 */
export function loadClusterKubeconfigFile(path: string, context?: string): ClusterKubeconfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw refuse(`cannot read the kubeconfig file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const loaded = parseClusterKubeconfig(text, { context });
  loaded.kubeConfig.makePathsAbsolute(dirname(path));
  return loaded;
}
