// The cluster a page shows lives in its URL (ADR 0035): `?cluster=NAME` on every page route, absent for the
// home cluster. These pure functions read it, keep it on in-app links and move the current page to another one.

const base = 'http://pilothouse.invalid';

/** The cluster a location's search names ('' = the home cluster). */
export function clusterOfSearch(search: string): string {
  return new URLSearchParams(search).get('cluster') ?? '';
}

/** `/a?b=1` as `{pathname, params}` (an app path always starts with `/`). */
function parts(path: string): { pathname: string; params: URLSearchParams; hash: string } {
  const url = new URL(path, base);
  return { pathname: url.pathname, params: url.searchParams, hash: url.hash };
}

function joined(pathname: string, params: URLSearchParams, hash: string): string {
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ''}${hash}`;
}

/**
 * An in-app path that keeps the current cluster: `cluster` is added unless the path names a cluster of
 * its own ('' adds nothing: the home cluster). Other query parameters stay as they are.
 */
export function keepCluster(path: string, cluster: string): string {
  if (!cluster || !path.startsWith('/')) return path;
  const { pathname, params, hash } = parts(path);
  if (params.has('cluster')) return path;
  params.set('cluster', cluster);
  return joined(pathname, params, hash);
}

/** The page at `pathname` + `search` on another cluster: every other parameter kept; '' (home) drops the parameter. */
export function onCluster(pathname: string, search: string, cluster: string): string {
  const params = new URLSearchParams(search);
  if (cluster) params.set('cluster', cluster);
  else params.delete('cluster');
  return joined(pathname, params, '');
}
