import { builtInResources } from './kube-resource-names.js';
import type { KubectlCommandLine } from './kubectl-grammar.js';

/** Lower-case spelling (plural, singular, short name, kind) → every spelling of the same resource type. */
const spellings = new Map<string, string[]>();
for (const resource of builtInResources) {
  const names = [resource.plural, resource.singular, ...(resource.shortNames ?? []), resource.kind.toLowerCase(), resource.kind].filter((name) => name !== '');
  for (const name of names) {
    const key = name.toLowerCase();
    spellings.set(key, [...new Set([...(spellings.get(key) ?? []), ...names])]);
  }
}

/** Commands whose plain arguments name one implicit type. */
const implicitKinds: Record<string, string> = {
  cordon: 'node',
  uncordon: 'node',
  drain: 'node',
  logs: 'pod',
  exec: 'pod',
  attach: 'pod',
  'top node': 'node',
  'top pod': 'pod',
};

/** At most this many kind × name pairs are spelled out; more is refused (the texts would grow quadratically). */
export const maximumResourcePairs = 20_000;

/** Every spelling of a resource type (`ns`, `namespace`, `namespaces`, `Namespace`) for `TYPE[.version][.group]`. */
export function kindSpellings(kind: string): string[] {
  const lower = kind.toLowerCase();
  const head = lower.split('.')[0] ?? lower;
  const known = spellings.get(lower) ?? spellings.get(head);
  return known ? [...new Set([kind, lower, ...known])] : [...new Set([kind, lower])];
}

function resourcePairs(command: string, args: readonly string[]): [string, string][] | undefined {
  const pairs: [string, string][] = [];
  const plain = args.filter((arg) => !arg.includes('/'));
  for (const arg of args.filter((item) => item.includes('/'))) {
    const slash = arg.indexOf('/');
    pairs.push([arg.slice(0, slash), arg.slice(slash + 1)]);
  }
  const implicit = implicitKinds[command];
  const [kinds, ...names] = implicit ? [implicit, ...plain] : plain;
  const distinct = [...new Set((kinds ?? '').split(',').filter((kind) => kind !== ''))];
  if (distinct.length * names.length + pairs.length > maximumResourcePairs) return undefined;
  for (const kind of distinct) for (const name of names) pairs.push([kind, name]);
  return pairs;
}

/**
 * Texts the blocked patterns see for a parsed kubectl command (besides the raw line): the command
 * path with its plain arguments; the same with every flag in canonical `--name=value` form; and
 * `kubectl <command> <type> <name>` per named resource in every spelling of the type, so a pattern
 * written `delete ns kube-system` also matches `delete Namespace kube-system`, `delete namespaces/kube-system`
 * or `delete -n x namespace kube-system`. Undefined when the line names too many kind × name pairs.
 */
export function kubectlPatternTexts(line: Pick<KubectlCommandLine, 'path' | 'flags' | 'args' | 'dashAt'>): string[] | undefined {
  const command = line.path.join(' ');
  const before = line.dashAt === -1 ? line.args : line.args.slice(0, line.dashAt);
  const after = line.dashAt === -1 ? [] : ['--', ...line.args.slice(line.dashAt)];
  const flags = line.flags.map((flag) => `--${flag.spec.name}=${flag.value}`);
  const texts = [`kubectl ${[command, ...before, ...after].join(' ')}`, `kubectl ${[command, ...before, ...flags, ...after].join(' ')}`];
  const pairs = resourcePairs(command, before);
  if (!pairs) return undefined;
  for (const [kind, name] of pairs) {
    for (const spelling of kindSpellings(kind)) texts.push(`kubectl ${command} ${spelling} ${name}`);
  }
  return texts;
}
