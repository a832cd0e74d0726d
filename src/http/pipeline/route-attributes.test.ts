import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from '../../rbac/request-info.js';
import { routeAttributes, verbFor } from './route-attributes.js';

describe('the request a route amounts to', () => {
  it('derives verbs from the method and whether one object is named', () => {
    expect(verbFor('GET', false)).toBe('list');
    expect(verbFor('GET', true)).toBe('get');
    expect(verbFor('DELETE', true)).toBe('delete');
    expect(verbFor('POST', true)).toBe('update');
    expect(verbFor('POST', false)).toBe('create');
    expect(verbFor('PATCH', true)).toBe('patch');
    expect(verbFor('PUT', true)).toBe('update');
  });

  it('builds the attributes of a route, with its subresource', () => {
    const target = { resource: 'pods', apiGroup: '', name: 'web-0', namespace: 'prod' };
    expect(routeAttributes({ method: 'GET', subresource: 'log' }, target)).toMatchObject({
      verb: 'get',
      resource: 'pods',
      subresource: 'log',
      name: 'web-0',
      namespace: 'prod',
      isResourceRequest: true,
      dryRun: false,
    });
  });

  it('makes a server-side apply route the PATCH kubectl apply --server-side sends, marked as an apply (decided as patch and create)', () => {
    const target = { resource: 'configmaps', apiGroup: '', name: 'settings', namespace: 'prod' };
    const attributes = routeAttributes({ method: 'POST', serverSideApply: true }, target);
    expect(attributes).toEqual({ ...parseRequestInfo('PATCH', '/api/v1/namespaces/prod/configmaps/settings'), apply: true });
  });

  it('makes a route that lists across all namespaces a list whatever its name parameter says', () => {
    const attributes = routeAttributes({ method: 'GET', listsAllNamespaces: true }, { resource: 'pods', apiGroup: '', name: 'node-1', namespace: 'x' });
    expect(attributes).toMatchObject({ verb: 'list', name: '', namespace: '' });
  });

  it('puts the Namespace object in itself, exactly as the policy proxy reads the same request', () => {
    const target = { resource: 'namespaces', apiGroup: '', apiVersion: 'v1', name: 'team-a', namespace: '' };
    for (const method of ['GET', 'DELETE', 'PATCH', 'PUT'] as const) {
      const attributes = routeAttributes({ method }, target);
      expect(attributes).toMatchObject({ resource: 'namespaces', name: 'team-a', namespace: 'team-a' });
      expect(attributes).toEqual(parseRequestInfo(method, '/api/v1/namespaces/team-a'));
    }
    expect(routeAttributes({ method: 'GET' }, { ...target, name: '' })).toMatchObject({ verb: 'list', namespace: '' });
  });

  it('keeps other cluster-scoped objects out of any namespace, and namespaced ones in theirs', () => {
    expect(routeAttributes({ method: 'POST' }, { resource: 'nodes', apiGroup: '', name: 'node-1', namespace: '' })).toMatchObject({
      verb: 'update',
      namespace: '',
      name: 'node-1',
    });
    const deployment = routeAttributes({ method: 'DELETE' }, { resource: 'deployments', apiGroup: 'apps', apiVersion: 'v1', name: 'web', namespace: 'prod' });
    expect(deployment).toEqual(parseRequestInfo('DELETE', '/apis/apps/v1/namespaces/prod/deployments/web'));
  });

  it('refuses a name that would not stay one path segment (400), before any decision', () => {
    for (const name of ['a/b', '..', '.']) {
      expect(() => routeAttributes({ method: 'GET' }, { resource: 'namespaces', apiGroup: '', name, namespace: '' })).toThrow(
        expect.objectContaining({ code: 'VALIDATION_ERROR' }),
      );
    }
    expect(() => routeAttributes({ method: 'GET' }, { resource: 'pods', apiGroup: '', name: 'web', namespace: 'a/b' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
  });
});
