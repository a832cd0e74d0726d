import { flagValue, hasFlag, hasShortLetter, operands, type OptionGrammar } from './option-scan.js';
import { verdict } from './severity.js';
import type { ShellWord, Verdict } from './types.js';

/** kubectl options (global and common per-verb) whose value is the next word. */
const kubectlGrammar: OptionGrammar = {
  valueOptions: new Set([
    '-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server', '--token',
    '--as', '--as-group', '--as-uid', '--cache-dir', '--certificate-authority', '--client-certificate',
    '--client-key', '--request-timeout', '--tls-server-name', '-v', '--v', '--vmodule', '--log-file', '--log-dir',
    '--profile', '--profile-output', '--password', '--username', '-o', '--output', '-l', '--selector',
    '-f', '--filename', '-k', '--kustomize', '-c', '--container', '--field-selector', '--template', '--since',
    '--since-time', '--tail', '--timeout', '--grace-period', '--replicas', '--image', '--type', '--for',
    '--patch', '--sort-by', '--field-manager', '--port', '--target-port', '--name', '--min', '--max',
    '--cpu-percent', '--current-replicas', '--resource-version', '--overrides', '--env', '--chunk-size',
  ]),
};

const readVerbs = new Set([
  'get', 'describe', 'logs', 'top', 'explain', 'api-resources', 'api-versions', 'version', 'cluster-info',
  'diff', 'events', 'wait', 'completion', 'kustomize', 'options', 'help',
]);
const writeVerbs = new Set([
  'apply', 'create', 'patch', 'edit', 'label', 'annotate', 'scale', 'set', 'expose', 'autoscale',
  'cordon', 'uncordon', 'taint', 'replace', 'run',
]);
const interactiveVerbs = new Set(['exec', 'attach', 'port-forward', 'cp', 'debug', 'proxy']);

/** Sub-commands: verb → sub-verb → verdict; a sub-verb not listed falls back to `otherwise`. */
const subVerbs: Record<string, { read: Set<string>; write: Set<string>; otherwise: Verdict }> = {
  rollout: { read: new Set(['status', 'history']), write: new Set(['restart', 'undo', 'pause', 'resume']), otherwise: verdict('unknown') },
  auth: { read: new Set(['can-i', 'whoami']), write: new Set(['reconcile']), otherwise: verdict('unknown') },
  config: {
    read: new Set(['view', 'get-contexts', 'current-context', 'get-clusters', 'get-users']),
    write: new Set(),
    otherwise: verdict('write', 'changes the kubeconfig'),
  },
  certificate: { read: new Set(), write: new Set(['approve', 'deny']), otherwise: verdict('unknown') },
  plugin: { read: new Set(['list']), write: new Set(), otherwise: verdict('unknown') },
};

function classifySubVerb(verb: string, subVerb: string | undefined): Verdict | undefined {
  const table = subVerbs[verb];
  if (!table) return undefined;
  if (subVerb === undefined || table.read.has(subVerb)) return verdict('read');
  if (table.write.has(subVerb)) return verdict('write');
  return table.otherwise;
}

function classifyDangerous(verb: string, args: readonly ShellWord[]): Verdict | undefined {
  if (verb === 'delete') return verdict('dangerous', hasFlag(args, '--all') ? 'deletes resources (--all)' : 'deletes resources');
  if (verb === 'drain') return verdict('dangerous', 'drains a node (evicts its pods)');
  if (verb === 'replace' && hasFlag(args, '--force')) return verdict('dangerous', 'replace --force deletes and re-creates resources');
  if (verb === 'apply' && hasFlag(args, '--prune')) return verdict('dangerous', 'apply --prune deletes resources');
  return undefined;
}

function isInteractiveRun(args: readonly ShellWord[]): boolean {
  if (hasShortLetter(args, 'it')) return true;
  if (hasFlag(args, '--stdin', '--tty')) return true;
  const attach = flagValue(args, '--attach');
  return attach !== undefined && attach !== 'false';
}

function classifyVerb(verb: string, subVerb: string | undefined, args: readonly ShellWord[]): Verdict {
  const dangerous = classifyDangerous(verb, args);
  if (dangerous) return dangerous;
  if (readVerbs.has(verb)) return verdict('read');
  if (verb === 'run' && isInteractiveRun(args)) return verdict('interactive', 'opens an interactive session');
  if (writeVerbs.has(verb)) return verdict('write');
  if (interactiveVerbs.has(verb)) return verdict('interactive', `kubectl ${verb} is interactive`);
  return classifySubVerb(verb, subVerb) ?? verdict('unknown', `unknown kubectl command "${verb}"`);
}

/** `--dry-run`, `--dry-run=client`, `--dry-run=server` or `--dry-run=true` (not `none`), before any `--`. */
export function isDryRun(args: readonly ShellWord[]): boolean {
  for (const word of args) {
    if (word.text === '--') return false;
    if (word.text === '--dry-run') return true;
    if (/^--dry-run=(client|server|true)$/.test(word.text)) return true;
  }
  return false;
}

/**
 * Classifies `kubectl` arguments (argv without the program). Flags may stand anywhere; the verb is
 * the first operand. A write or dangerous verb with `--dry-run` (client or server) changes nothing: read.
 */
export function classifyKubectl(args: readonly ShellWord[]): Verdict {
  const [verb, subVerb] = operands(args, kubectlGrammar);
  if (verb === undefined) return verdict('read');
  const result = classifyVerb(verb, subVerb, args);
  const changes = result.type === 'write' || result.type === 'dangerous';
  if (changes && isDryRun(args)) return verdict('read', 'dry run');
  return result;
}

/**
 * Texts for the blocked patterns: `kubectl <verb> <type> <name>` per named resource, flags left out,
 * `type/name` and `type1,type2` spelled out, so `kubectl delete -n x namespace/kube-system` is seen as
 * `kubectl delete namespace kube-system`.
 */
export function kubectlPatternTexts(args: readonly ShellWord[]): string[] {
  const [verb, ...rest] = operands(args, kubectlGrammar);
  if (verb === undefined) return [];
  const texts = [`kubectl ${[verb, ...rest].join(' ')}`];
  const [kinds, ...names] = rest;
  for (const item of rest.filter((word) => word.includes('/'))) {
    const [kind, name] = item.split('/', 2);
    texts.push(`kubectl ${verb} ${kind} ${name}`);
  }
  for (const kind of kinds?.split(',') ?? []) {
    for (const name of names) texts.push(`kubectl ${verb} ${kind} ${name}`);
  }
  return texts;
}
