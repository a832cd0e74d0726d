import { describe, expect, it } from 'vitest';
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
    expect(routeAttributes({ method: 'GET', path: '/api/pods/:name/logs', subresource: 'log' }, target)).toMatchObject({
      verb: 'get',
      resource: 'pods',
      subresource: 'log',
      name: 'web-0',
      namespace: 'prod',
      isResourceRequest: true,
      dryRun: false,
    });
  });

  it('makes a route that lists across all namespaces a list whatever its name parameter says', () => {
    const attributes = routeAttributes(
      { method: 'GET', path: '/api/nodes/:name/pods', listsAllNamespaces: true },
      { resource: 'pods', apiGroup: '', name: 'node-1', namespace: 'x' },
    );
    expect(attributes).toMatchObject({ verb: 'list', name: '', namespace: '' });
  });
});
