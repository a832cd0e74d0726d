import { parseRequestInfo } from '../../rbac/request-info.js';
import type { KubectlCommandLine } from './kubectl-grammar.js';
import { kindSpellings } from './kubectl-pattern-texts.js';
import { verdict } from './severity.js';
import type { Verdict } from './types.js';

/** The HTTP method kubectl sends for `<command> --raw <path>`. */
const rawMethods: Record<string, string> = { get: 'GET', create: 'POST', replace: 'PUT', delete: 'DELETE' };

/** `kubectl <command> --raw <path>`: the request it sends as written (kubectl ignores `--dry-run` with `--raw`). */
export interface RawRequest {
  command: string;
  method: string;
  path: string;
}

/** The raw request of a line, or undefined when it has no `--raw` (the last one counts, as in kubectl). */
export function rawRequestOf(line: Pick<KubectlCommandLine, 'path' | 'flags'>): RawRequest | undefined {
  const command = line.path.join(' ');
  const method = rawMethods[command];
  if (!method) return undefined;
  let path: string | undefined;
  for (const flag of line.flags) if (flag.spec.name === 'raw') path = flag.value;
  return path === undefined ? undefined : { command, method, path };
}

/** A segment as the API server reads it (escapes decoded; a malformed escape kept as written). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Why a `--raw` path may not be sent: an empty segment (`//`) or a `.`/`..` segment (also escaped, `%2e`) is one
 * kubectl may collapse, clean or decode before it sends the request, so what reaches the cluster would differ
 * from the line the approval card and the audit row show. A trailing `/` (as in `/` or `/api/`) is sent as
 * written. Undefined: the path is sent as written.
 */
export function rawPathRefusal(path: string): string | undefined {
  const written = path.split(/[?#]/, 1)[0] ?? '';
  if (!written.startsWith('/')) return `--raw ${path}: the path must start with "/"`;
  const segments = written.slice(1).split('/');
  const inner = segments.slice(0, -1);
  const last = segments.at(-1) ?? '';
  const odd = [...inner.map((segment) => decodedSegment(segment)), decodedSegment(last)].find(
    (segment, index) => segment === '.' || segment === '..' || (segment === '' && index < inner.length),
  );
  if (odd === undefined) return undefined;
  const what = odd === '' ? 'an empty segment ("//")' : `a "${odd}" segment`;
  return `--raw ${path}: the path has ${what}, which kubectl would not send as written; write the path without it`;
}

/** The class of a raw request by its HTTP method: GET reads, POST and PUT write, DELETE is dangerous; never a dry run. */
export function rawVerdict(raw: RawRequest): Verdict {
  const what = `sends ${raw.method} ${raw.path} as written (--raw: kubectl ignores --dry-run)`;
  if (raw.method === 'GET') return verdict('read', what);
  return verdict(raw.method === 'DELETE' ? 'dangerous' : 'write', what);
}

/**
 * Texts the blocked patterns see for a raw request: the decoded path, and the request as a kubectl
 * command in every spelling of its resource, with the namespace as a flag, so
 * `delete --raw /api/v1/namespaces/kube-system` reads as `kubectl delete namespace kube-system` and
 * `delete --raw /api/v1/namespaces/kube-system/pods/x` as `kubectl delete pods x --namespace=kube-system`.
 */
export function rawPatternTexts(raw: RawRequest): string[] {
  const attributes = parseRequestInfo(raw.method, raw.path);
  let decoded = attributes.path;
  try {
    decoded = decodeURIComponent(attributes.path);
  } catch {
    // kept as written; the proxy refuses malformed escapes
  }
  const texts = [`kubectl ${raw.command} --raw ${decoded}`, `kubectl ${raw.command} --raw=${decoded}`];
  if (!attributes.isResourceRequest) return texts;
  const name = attributes.name ? ` ${attributes.name}` : '';
  const inNamespace = attributes.namespace && attributes.resource !== 'namespaces';
  const flags = inNamespace ? [` --namespace=${attributes.namespace}`, ` -n ${attributes.namespace}`] : [''];
  const kinds = attributes.subresource ? [attributes.resource, `${attributes.resource}/${attributes.subresource}`] : [attributes.resource];
  for (const kind of kinds) {
    for (const spelling of kindSpellings(kind)) for (const flag of flags) texts.push(`kubectl ${raw.command} ${spelling}${name}${flag}`);
  }
  return texts;
}
