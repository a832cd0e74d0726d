import { useCallback, useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { pagePath, parsePageRoute, type PageRoute } from './page-routes';
import { useCluster } from './cluster-context';
import { clusterOfSearch, keepCluster, onCluster } from './cluster-url';

/** The pages of the app; paths are real URLs (the service answers index.html for them). */
export type Route =
  | { page: 'resources'; kind: string }
  | { page: 'object'; kind: string; namespace?: string; name: string; tab?: string }
  | { page: 'audit' }
  | { page: 'users' }
  | { page: 'access' }
  | { page: 'settings' }
  | PageRoute;

const kindPattern = /^[a-zA-Z][a-zA-Z0-9.-]*$/;

/** Cluster-scoped objects have `_` where the namespace goes: `/resources/nodes/_/node-1`. */
export const clusterScoped = '_';

/** `/resources/{kind}` is the list; `/resources/{kind}/{namespace or _}/{name}[/{tab}]` one object's page. */
function resourceRoute(kind: string, rest: string[]): Route {
  const [namespace, name, tab] = rest;
  if (!namespace || !name) return { page: 'resources', kind };
  return { page: 'object', kind, namespace: namespace === clusterScoped ? undefined : namespace, name, tab };
}

/** The deep link of one object's page (and tab). */
export function objectRoutePath(target: { resource: string; namespace?: string; name: string }, tab?: string): string {
  const parts = ['resources', target.resource, target.namespace || clusterScoped, target.name, ...(tab ? [tab] : [])];
  return `/${parts.map(encodeURIComponent).join('/')}`;
}

export function parseRoute(pathname: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'admin' && parts[1] === 'audit') return { page: 'audit' };
  if (parts[0] === 'admin' && parts[1] === 'users') return { page: 'users' };
  if (parts[0] === 'settings') return { page: 'settings' };
  if (parts[0] === 'access-requests') return { page: 'access' };
  if (parts[0] === 'resources' && parts[1] && kindPattern.test(parts[1])) return resourceRoute(parts[1], parts.slice(2));
  return parsePageRoute(parts);
}

export function routePath(route: Route): string {
  switch (route.page) {
    case 'resources':
      return `/resources/${encodeURIComponent(route.kind)}`;
    case 'object':
      return objectRoutePath({ resource: route.kind, namespace: route.namespace, name: route.name }, route.tab);
    case 'audit':
      return '/admin/audit';
    case 'users':
      return '/admin/users';
    case 'settings':
      return '/settings';
    case 'access':
      return '/access-requests';
    default:
      return pagePath(route);
  }
}

const changeEvent = 'pilothouse:navigate';

function pushPath(path: string): void {
  if (path === window.location.pathname + window.location.search) return;
  window.history.pushState(null, '', path);
  window.dispatchEvent(new Event(changeEvent));
}

/**
 * Sets (or, with null, removes) query parameters of the current page: `push` makes a history entry (Back
 * undoes the change), `replace` does not. Views reading the parameters (useSearchParam) follow.
 */
export function setSearchParams(changes: Record<string, string | null>, mode: 'push' | 'replace'): void {
  const params = new URLSearchParams(window.location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  const path = `${window.location.pathname}${query ? `?${query}` : ''}`;
  if (path === window.location.pathname + window.location.search) return;
  if (mode === 'push') window.history.pushState(null, '', path);
  else window.history.replaceState(window.history.state, '', path);
  window.dispatchEvent(new Event(changeEvent));
}

/** Goes to an in-app path; the current cluster (`?cluster=`) comes along unless the path names one. */
export function navigate(path: string): void {
  pushPath(keepCluster(path, clusterOfSearch(window.location.search)));
}

/** Shows the current page on another cluster ('' = the home cluster, no parameter). */
export function switchCluster(cluster: string): void {
  pushPath(onCluster(window.location.pathname, window.location.search, cluster));
}

/** A value read from the location, read again on pushState navigation and the back/forward buttons. */
function useLocationValue<T>(read: () => T): T {
  const [value, setValue] = useState(read);
  useEffect(() => {
    const update = (): void => setValue(read);
    window.addEventListener('popstate', update);
    window.addEventListener(changeEvent, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(changeEvent, update);
    };
  }, [read]);
  return value;
}

const readRoute = (): Route => parseRoute(window.location.pathname);
const readCluster = (): string => clusterOfSearch(window.location.search);

/** The current route; follows pushState navigation and the back/forward buttons. */
export function useRoute(): Route {
  return useLocationValue(readRoute);
}

/** A query parameter of the current URL (null when absent); follows navigation like useRoute. */
export function useSearchParam(name: string): string | null {
  const read = useCallback(() => new URLSearchParams(window.location.search).get(name), [name]);
  return useLocationValue(read);
}

/** The cluster the URL names (`?cluster=`; '' = the home cluster); follows navigation like useRoute. */
export function useLocationCluster(): string {
  return useLocationValue(readCluster);
}

/** An in-app link: a real anchor (keyboard, middle-click), navigated without a reload; it keeps the current cluster. */
export function Link({ to, children, className, current }: { to: string; children: ReactNode; className?: string; current?: boolean }): ReactNode {
  const href = keepCluster(to, useCluster());
  const onClick = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(href);
    },
    [href],
  );
  return (
    <a href={href} onClick={onClick} className={className} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}
