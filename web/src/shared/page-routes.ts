/** The pages of stage two (overview, Helm, port forwards, MCP servers, reports): their paths and how they parse. */
export type PageRoute =
  | { page: 'overview' }
  | { page: 'helm' }
  | { page: 'helm-release'; namespace: string; name: string }
  | { page: 'helm-install' }
  | { page: 'helm-repositories' }
  | { page: 'portforwards' }
  | { page: 'mcp' }
  | { page: 'reports' }
  | { page: 'clusters' }
  | { page: 'investigations' }
  | { page: 'problems' }
  | { page: 'usage' }
  | { page: 'not-found' };

const namePattern = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

function helmRoute(parts: string[]): PageRoute {
  if (parts.length === 1) return { page: 'helm' };
  if (parts[1] === 'install') return { page: 'helm-install' };
  if (parts[1] === 'repositories') return { page: 'helm-repositories' };
  const [, section, namespace, name] = parts;
  if (section === 'releases' && namespace && name && namePattern.test(namespace) && namePattern.test(name)) return { page: 'helm-release', namespace, name };
  return { page: 'not-found' };
}

/** The pages named by their first path part alone. */
const firstPartPages: Record<string, PageRoute> = {
  'port-forwards': { page: 'portforwards' },
  reports: { page: 'reports' },
  clusters: { page: 'clusters' },
  investigations: { page: 'investigations' },
  problems: { page: 'problems' },
  usage: { page: 'usage' },
};

/** The stage-two page of a decoded path (its parts): the overview at `/`, a not-found page for any path no page claims. */
export function parsePageRoute(parts: string[]): PageRoute {
  const [first = '', second] = parts;
  if (parts.length === 0 || (parts.length === 1 && first === 'overview')) return { page: 'overview' };
  if (first === 'helm') return helmRoute(parts);
  if (first === 'admin' && second === 'mcp') return { page: 'mcp' };
  return Object.hasOwn(firstPartPages, first) ? (firstPartPages[first] as PageRoute) : { page: 'not-found' };
}

/** The paths of the pages without parameters. */
const fixedPaths: Record<Exclude<PageRoute['page'], 'helm-release' | 'not-found'>, string> = {
  overview: '/overview',
  helm: '/helm',
  'helm-install': '/helm/install',
  'helm-repositories': '/helm/repositories',
  portforwards: '/port-forwards',
  mcp: '/admin/mcp',
  reports: '/reports',
  clusters: '/clusters',
  investigations: '/investigations',
  problems: '/problems',
  usage: '/usage',
};

export function pagePath(route: PageRoute): string {
  if (route.page === 'helm-release') return `/helm/releases/${encodeURIComponent(route.namespace)}/${encodeURIComponent(route.name)}`;
  if (route.page === 'not-found') return '/overview';
  return fixedPaths[route.page];
}

/** True for the routes of this module. */
export function isPageRoute(route: { page: string }): route is PageRoute {
  return [
    'overview',
    'helm',
    'helm-release',
    'helm-install',
    'helm-repositories',
    'portforwards',
    'mcp',
    'reports',
    'clusters',
    'investigations',
    'problems',
    'usage',
    'not-found',
  ].includes(route.page);
}
