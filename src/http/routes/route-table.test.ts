import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/load.js';
import { permissionMatrix, permissions } from '../permissions.js';
import { permissionFor } from '../../rbac/policy.js';
import { routeAttributes } from '../pipeline/route-attributes.js';
import { allRoutes, type RouteDeps } from './index.js';

/** Route factories only capture their services (some pick fields of one), they call none while the table is built. */
function routeTable(): ReturnType<typeof allRoutes> {
  const config = parseConfig({}, {}, 'test');
  return allRoutes({ config, security: {}, pilot: {}, mcp: {} } as RouteDeps);
}

describe('the route table', () => {
  const routes = routeTable();

  it('declares a known permission for every route', () => {
    expect(routes.length).toBeGreaterThan(10);
    for (const spec of routes) {
      expect(permissions, `${spec.method} ${spec.path}`).toContain(spec.permission);
      expect(spec.summary, `${spec.method} ${spec.path} needs a summary`).toBeTruthy();
    }
  });

  it('has no duplicate method and path', () => {
    const keys = routes.map((spec) => `${spec.method} ${spec.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps user management, locks and the audit log admin-only', () => {
    const sensitive = routes.filter((spec) => spec.path.startsWith('/api/admin/') || spec.path === '/api/audit');
    expect(sensitive.length).toBeGreaterThanOrEqual(11);
    for (const spec of sensitive) {
      const matrix = permissionMatrix[spec.permission];
      expect(matrix, `${spec.method} ${spec.path}`).toEqual({ viewer: 'no', user: 'no', admin: 'yes' });
    }
  });

  it('leaves only health, sign-in and static reads public', () => {
    const open = routes.filter((spec) => spec.permission === 'public').map((spec) => `${spec.method} ${spec.path}`);
    expect(open).toContain('POST /api/auth/login');
    expect(open).toContain('GET /api/health');
    // Writes open to anyone: password login and the device sign-in (start, poll); Alertmanager's receiver checks its own bearer token.
    for (const entry of open)
      expect(entry).not.toMatch(/^(POST|PUT|PATCH|DELETE) (?!\/api\/auth\/(login|oidc\/device|oidc\/device\/token)$|\/api\/alerts\/alertmanager$)/);
  });

  it('gives viewers no write, delete or exec route', () => {
    for (const spec of routes.filter((route) => route.method !== 'GET' && route.permission !== 'public' && route.permission !== 'authenticated')) {
      expect(permissionMatrix[spec.permission].viewer, `${spec.method} ${spec.path}`).toBe('no');
    }
  });

  it('declares on every resource route the permission the one policy derives from the request it amounts to', () => {
    const resourceRoutes = routes.filter((spec) => spec.resourceKind);
    expect(resourceRoutes.length).toBeGreaterThan(20);
    for (const spec of resourceRoutes) {
      for (const name of ['', 'object']) {
        const attributes = routeAttributes(spec, { resource: 'pods', apiGroup: '', name, namespace: 'ns' });
        expect(permissionFor(attributes), `${spec.method} ${spec.path} (${name || 'collection'})`).toBe(spec.permission);
      }
    }
  });
});
