import type { RequestAttributes } from './request-attributes.js';

/** Path prefixes of resource requests: `/api/v1/...` (core) and `/apis/<group>/<version>/...`. */
const apiPrefixes = new Set(['api', 'apis']);

/** Subresources of the namespace object itself (`namespaces/<ns>/status` is not a resource named status). */
const namespaceSubresources = new Set(['status', 'finalize']);

/** Verbs by HTTP method for requests on one object (collections differ for GET and DELETE). */
const objectVerbs: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** The path decoded first and split afterwards, as Go's net/http hands it to the API server (`%2F` is a separator). */
function splitPath(path: string): string[] {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // malformed escapes stay as they are; the API server refuses such requests anyway
  }
  const trimmed = decoded.startsWith('/') ? decoded.slice(1) : decoded;
  return trimmed === '' ? [] : trimmed.split('/');
}

/**
 * Why a path's segments cannot be decided: an empty segment (`/apis//v1`, a trailing `/`) or a
 * `.`/`..` segment (also escaped). The API server's request-info and its routes would read such a
 * path differently from each other and from this parser, so the policy refuses it.
 */
function invalidSegments(parts: readonly string[]): string | undefined {
  if (parts.includes('')) return 'the path has an empty segment (// or a trailing /)';
  if (parts.some((part) => part === '.' || part === '..')) return 'the path has a . or .. segment';
  return undefined;
}

/** Path and query of an origin-form or absolute URL, exactly as written: no dot segment is resolved. */
function pathAndQuery(url: string): { path: string; query: URLSearchParams } {
  const target = url.split('#')[0] ?? '';
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i.exec(target)?.[0] ?? '';
  const rest = target.slice(origin.length);
  const mark = rest.indexOf('?');
  const path = mark === -1 ? rest : rest.slice(0, mark);
  return { path: path === '' ? '/' : path, query: new URLSearchParams(mark === -1 ? '' : rest.slice(mark + 1)) };
}

function nonResource(method: string, path: string, invalid: string | undefined): RequestAttributes {
  return {
    ...(invalid ? { invalid } : {}),
    verb: method.toLowerCase(),
    isResourceRequest: false,
    path,
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    dryRun: false,
  };
}

/** `true` for `watch=true|1` (the API server's boolean parsing of the query parameter). */
function watchRequested(query: URLSearchParams): boolean {
  const value = query.get('watch');
  return value !== null && ['1', 'true', 't', 'True', 'TRUE'].includes(value);
}

function verbOf(method: string, parts: readonly string[], query: URLSearchParams, watchPrefix: boolean): string {
  const verb = objectVerbs[method] ?? method.toLowerCase();
  // A collection: `resource` (1 part) or `namespaces/ns/resource` handled by the caller as parts.length === 1.
  if (parts.length === 1) {
    if (verb === 'get') return watchPrefix || watchRequested(query) ? 'watch' : 'list';
    if (verb === 'delete') return 'deletecollection';
  }
  if (watchPrefix && verb === 'get') return 'watch';
  return verb;
}

/** Where a resource request points once the group and version are read: namespace and the remaining parts. */
function scopeOf(parts: readonly string[]): { namespace: string; rest: string[]; watchPrefix: boolean } {
  let rest = [...parts];
  const watchPrefix = rest[0] === 'watch';
  if (watchPrefix) rest = rest.slice(1);
  let namespace = '';
  // `namespaces/<ns>/<resource>...`; but `namespaces/<ns>` alone (and its subresources `status`,
  // `finalize`) is the namespace object itself, named <ns>.
  if (rest[0] === 'namespaces' && rest.length >= 2) {
    namespace = rest[1] ?? '';
    if (rest.length >= 3 && !namespaceSubresources.has(rest[2] ?? '')) rest = rest.slice(2);
  }
  return { namespace, rest, watchPrefix };
}

/** Group and version of `/api/<v>/...` or `/apis/<g>/<v>/...`, and the parts after them; undefined for discovery paths. */
function groupVersionOf(parts: readonly string[]): { apiGroup: string; apiVersion: string; rest: string[] } | undefined {
  const prefix = parts[0] ?? '';
  if (!apiPrefixes.has(prefix)) return undefined;
  const groupParts = prefix === 'api' ? 2 : 3;
  if (parts.length <= groupParts) return undefined;
  return { apiGroup: prefix === 'api' ? '' : (parts[1] ?? ''), apiVersion: parts[groupParts - 1] ?? '', rest: parts.slice(groupParts) };
}

/**
 * Parses a request like the API server's RequestInfoFactory does: method plus URL (path and
 * query, absolute or not) into verb, API group and version, resource, subresource, namespace and
 * name. Anything outside `/api/<v>/...` and `/apis/<g>/<v>/...` is a non-resource request, and so
 * are the discovery documents `/api`, `/apis`, `/apis/<g>` and `/apis/<g>/<v>`. A path with an
 * empty, `.` or `..` segment is parsed as written and marked `invalid` (the policy refuses it).
 */
export function parseRequestInfo(method: string, url: string): RequestAttributes {
  const { path, query } = pathAndQuery(url);
  const upper = method.toUpperCase();
  const parts = splitPath(path);
  const invalid = invalidSegments(parts);
  const groupVersion = groupVersionOf(parts);
  if (!groupVersion) return nonResource(upper, path, invalid);
  const { namespace, rest, watchPrefix } = scopeOf(groupVersion.rest);
  if (rest.length === 0) return nonResource(upper, path, invalid);
  const resource = (rest[0] ?? '').toLowerCase();
  const name = rest[1] ?? '';
  const verb = verbOf(upper, rest.length === 1 ? rest : rest.slice(0, 2), query, watchPrefix);
  // The namespace object `namespaces/<ns>` is cluster-scoped: its namespace attribute is its name.
  const isNamespaceObject = resource === 'namespaces' && rest.length >= 2;
  return {
    verb,
    isResourceRequest: true,
    path,
    apiGroup: groupVersion.apiGroup,
    apiVersion: groupVersion.apiVersion,
    resource,
    subresource: (rest[2] ?? '').toLowerCase(),
    namespace: isNamespaceObject ? name : namespace,
    name,
    dryRun: query.getAll('dryRun').includes('All'),
    ...(invalid ? { invalid } : {}),
  };
}
