import { useCallback, useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { pagePath, parsePageRoute, type PageRoute } from '../features/layout/page-routes';

/** The pages of the app; paths are real URLs (the service answers index.html for them). */
export type Route = { page: 'resources'; kind: string } | { page: 'audit' } | { page: 'users' } | { page: 'access' } | { page: 'settings' } | PageRoute;

const kindPattern = /^[a-zA-Z][a-zA-Z0-9.-]*$/;

export function parseRoute(pathname: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'admin' && parts[1] === 'audit') return { page: 'audit' };
  if (parts[0] === 'admin' && parts[1] === 'users') return { page: 'users' };
  if (parts[0] === 'settings') return { page: 'settings' };
  if (parts[0] === 'access-requests') return { page: 'access' };
  if (parts[0] === 'resources' && parts[1] && kindPattern.test(parts[1])) return { page: 'resources', kind: parts[1] };
  return parsePageRoute(parts);
}

export function routePath(route: Route): string {
  switch (route.page) {
    case 'resources':
      return `/resources/${encodeURIComponent(route.kind)}`;
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

export function navigate(path: string): void {
  if (path === window.location.pathname) return;
  window.history.pushState(null, '', path);
  window.dispatchEvent(new Event(changeEvent));
}

/** The current route; follows pushState navigation and the back/forward buttons. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.pathname));
  useEffect(() => {
    const update = (): void => setRoute(parseRoute(window.location.pathname));
    window.addEventListener('popstate', update);
    window.addEventListener(changeEvent, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(changeEvent, update);
    };
  }, []);
  return route;
}

/** An in-app link: a real anchor (keyboard, middle-click), navigated without a reload. */
export function Link({ to, children, className, current }: { to: string; children: ReactNode; className?: string; current?: boolean }): ReactNode {
  const onClick = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(to);
    },
    [to],
  );
  return (
    <a href={to} onClick={onClick} className={className} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}
