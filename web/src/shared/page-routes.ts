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
  | { page: 'usage' };

const namePattern = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

function helmRoute(parts: string[]): PageRoute | undefined {
  if (parts.length === 1) return { page: 'helm' };
  if (parts[1] === 'install') return { page: 'helm-install' };
  if (parts[1] === 'repositories') return { page: 'helm-repositories' };
  const [, section, namespace, name] = parts;
  if (section === 'releases' && namespace && name && namePattern.test(namespace) && namePattern.test(name)) return { page: 'helm-release', namespace, name };
  return undefined;
}

/** The pages of one path part and no parameters. */
const plainPages = new Map<string, PageRoute>([
  ['port-forwards', { page: 'portforwards' }],
  ['reports', { page: 'reports' }],
  ['clusters', { page: 'clusters' }],
  ['investigations', { page: 'investigations' }],
  ['problems', { page: 'problems' }],
  ['usage', { page: 'usage' }],
]);

/** The stage-two page of a decoded path (its parts); the overview for any path no page claims. */
export function parsePageRoute(parts: string[]): PageRoute {
  if (parts[0] === 'helm') return helmRoute(parts) ?? { page: 'helm' };
  if (parts[0] === 'admin' && parts[1] === 'mcp') return { page: 'mcp' };
  return plainPages.get(parts[0] ?? '') ?? { page: 'overview' };
}

/** The paths of the pages without parameters. */
const fixedPaths: Record<Exclude<PageRoute['page'], 'helm-release'>, string> = {
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
  ].includes(route.page);
}
