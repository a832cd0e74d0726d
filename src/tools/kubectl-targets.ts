import { parseKubectl } from './safety/kubectl-grammar.js';
import { splitPlainWords } from './safety/plain-words.js';

/** One object a kubectl command line names: a resource name as written (`deploy`, `deployment.apps`), a name, a namespace. */
export interface KubectlTarget {
  resource: string;
  name: string;
  namespace?: string;
}

const maxTargets = 5;

/** Whether a positional argument is a setting (`app=img`, `tier-`, a label or annotation) rather than an object. */
function isSetting(argument: string): boolean {
  return argument.includes('=') || argument.endsWith('-') || argument.startsWith('-');
}

/** `type/name ...` or `type name ...` (a comma list of types names no single object and is skipped). */
function targetsOf(args: readonly string[], namespace: string | undefined): KubectlTarget[] {
  const objects = args.filter((argument) => !isSetting(argument));
  const where = namespace ? { namespace } : {};
  if (objects[0]?.includes('/')) {
    return objects.flatMap((argument) => {
      const [resource = '', name = ''] = argument.split('/');
      return resource && name ? [{ resource, name, ...where }] : [];
    });
  }
  const [resource = '', ...names] = objects;
  if (!resource || resource.includes(',')) return [];
  return names.map((name) => ({ resource, name, ...where }));
}

/**
 * The objects a kubectl command line names by type and name (`scale deployment/web -n shop`, `delete pod a b`,
 * `label deploy web tier=x`), at most five; none for a line that names objects by file or selector only, or that
 * kubectl would not read. Used to say on an approval card who else manages the objects (src/kube/managed-objects.ts).
 */
export function kubectlTargets(commandLine: string): KubectlTarget[] {
  const split = splitPlainWords(commandLine);
  if (!split.ok || split.words[0] !== 'kubectl') return [];
  const parsed = parseKubectl(split.words.slice(1));
  if (!parsed.ok || parsed.line.help || parsed.line.path.length === 0) return [];
  const namespace = parsed.line.flags.findLast((flag) => flag.spec.name === 'namespace')?.value;
  const positional = parsed.line.dashAt >= 0 ? parsed.line.args.slice(0, parsed.line.dashAt) : parsed.line.args;
  return targetsOf(positional, namespace).slice(0, maxTargets);
}
