import { validation } from '../errors.js';
import type { RequestAttributes } from './request-attributes.js';
import { parseRequestInfo } from './request-info.js';

/** One resource request by its parts, as an HTTP route (not a URL) names it. */
export interface ResourceRequest {
  /** The Kubernetes verb the request amounts to (get, list, watch, create, update, patch, delete...). */
  verb: string;
  /** '' for the core group. */
  apiGroup: string;
  /** Default `v1`. */
  apiVersion?: string;
  /** Plural, as discovery names it. */
  resource: string;
  /** '' or absent when none. */
  subresource?: string;
  /** '' for cluster-scoped kinds and lists across all namespaces. */
  namespace: string;
  /** '' for collections. */
  name: string;
  dryRun?: boolean;
  /** A server-side apply (decided as `patch` and `create`: RequestAttributes.apply). */
  apply?: boolean;
}

/** A name, namespace or resource that would not stay one path segment is no Kubernetes name: refused (400). */
function segment(value: string, field: string): string {
  if (value === '' || value.includes('/') || value === '.' || value === '..')
    throw validation(`${field} is not a valid Kubernetes name`, { fields: { [field]: 'not a valid name' } });
  return encodeURIComponent(value);
}

/** The API server path of a resource request: `/api/<v>/...` or `/apis/<group>/<v>/...`, with the namespace and name. */
export function apiPathOf(request: ResourceRequest): string {
  const version = segment(request.apiVersion || 'v1', 'apiVersion');
  const base = request.apiGroup ? ['apis', segment(request.apiGroup, 'apiGroup'), version] : ['api', version];
  const scope = request.namespace ? ['namespaces', segment(request.namespace, 'namespace')] : [];
  const object = request.name ? [segment(request.name, 'name')] : [];
  return `/${[...base, ...scope, segment(request.resource, 'resource'), ...object].join('/')}`;
}

/**
 * The attributes of a request named by its parts (an HTTP route's), read exactly as the policy
 * proxy reads a proxied request: its API server path goes through `parseRequestInfo`, so the rules
 * of what a path names hold on every path in one place. The Namespace object `namespaces/<x>` is in
 * namespace `<x>`: a deny role on namespace x covers get/update/delete of the Namespace x itself,
 * as it covers everything in it. The verb, subresource and dry run are the request's own.
 */
export function resourceRequestAttributes(request: ResourceRequest): RequestAttributes {
  const parsed = parseRequestInfo('GET', apiPathOf(request));
  const attributes = { ...parsed, verb: request.verb, subresource: request.subresource ?? '', dryRun: request.dryRun ?? false };
  return request.apply ? { ...attributes, apply: true } : attributes;
}
