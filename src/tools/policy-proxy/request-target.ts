import { parseRequestInfo } from '../../rbac/request-info.js';
import type { RequestAttributes } from '../../rbac/request-attributes.js';

/** A request's path and query in one canonical form: what the policy decides on is exactly what is forwarded. */
export interface RequestTarget {
  pathname: string;
  /** `?a=b&...` re-serialized (form encoding), or ''. */
  search: string;
  attributes: RequestAttributes;
}

/** Why a request target is refused before the policy: 403 for other hosts and encoded slashes, 400 for paths not in canonical form. */
export interface TargetRefusal {
  code: 400 | 403;
  message: string;
  /** The request as parsed, when it got that far (for the refusal log). */
  attributes?: RequestAttributes;
}

const base = 'http://policy-proxy.invalid';
const foreign: TargetRefusal = { code: 403, message: 'the policy proxy refuses this request target (absolute URL or encoded slash)' };

/** The path as the client wrote it (before the query), which URL parsing would normalize. */
const writtenPath = (rawUrl: string): string => rawUrl.split(/[?#]/, 1)[0] ?? '';

/**
 * Parses the request target (origin form only: `/path?query`). Absolute and protocol-relative
 * forms, and encoded slashes (which the API server would split where the parser does not), are
 * refused (403). A path with an empty, `.` or `..` segment, or one that URL parsing would rewrite
 * (a backslash, an escaped dot, an unescaped character), is refused (400) instead of being
 * resolved: the API server would not serve it as the policy read it. The query is re-encoded, so
 * the API server reads the same parameters the policy saw.
 */
export function requestTarget(method: string, rawUrl: string | undefined): RequestTarget | TargetRefusal {
  if (!rawUrl?.startsWith('/') || rawUrl.startsWith('//')) return foreign;
  let url: URL;
  try {
    url = new URL(rawUrl, base);
  } catch {
    return { code: 400, message: 'the policy proxy cannot parse this request target' };
  }
  if (url.origin !== base || /%2f|%5c|%00/i.test(url.pathname)) return foreign;
  const query = url.searchParams.toString();
  const search = query === '' ? '' : `?${query}`;
  const path = writtenPath(rawUrl);
  const attributes = parseRequestInfo(method, path + search);
  if (attributes.invalid) return { code: 400, message: `the policy proxy refuses the path ${path}: ${attributes.invalid}`, attributes };
  if (url.pathname !== path) return { code: 400, message: `the policy proxy refuses the path ${path}: it is not in canonical form`, attributes };
  return { pathname: path, search, attributes };
}

/** Whether `requestTarget` refused the target. */
export function isTargetRefusal(target: RequestTarget | TargetRefusal): target is TargetRefusal {
  return 'code' in target;
}
