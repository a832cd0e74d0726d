import { parseRequestInfo } from '../../rbac/request-info.js';
import type { RequestAttributes } from '../../rbac/request-attributes.js';

/** A request's path and query in one canonical form: what the policy decides on is exactly what is forwarded. */
export interface RequestTarget {
  pathname: string;
  /** `?a=b&...` re-serialized (form encoding), or ''. */
  search: string;
  attributes: RequestAttributes;
}

const base = 'http://policy-proxy.invalid';

/**
 * Parses the request target (origin form only: `/path?query`). Absolute and protocol-relative
 * forms, and encoded slashes (which the API server would split where the parser does not), are
 * refused: undefined. Dot segments are resolved and the query is re-encoded, so the API server
 * reads the same path and parameters the policy saw.
 */
export function requestTarget(method: string, rawUrl: string | undefined): RequestTarget | undefined {
  if (!rawUrl?.startsWith('/') || rawUrl.startsWith('//')) return undefined;
  let url: URL;
  try {
    url = new URL(rawUrl, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base || /%2f|%5c|%00/i.test(url.pathname)) return undefined;
  const query = url.searchParams.toString();
  const search = query === '' ? '' : `?${query}`;
  return { pathname: url.pathname, search, attributes: parseRequestInfo(method, url.pathname + search) };
}
