import { describe, expect, it } from 'vitest';
import { parseRoute, routePath } from '../../app/router';
import { accessRequestBody } from './access-request';

describe('access requests', () => {
  it('builds the request body; empty fields ask for all', () => {
    expect(accessRequestBody({ namespace: ' demo ', resource: 'deployments', ttl: '30m', reason: ' scale up ' })).toEqual({
      permission: 'execute_write',
      namespaces: ['demo'],
      resources: ['deployments'],
      reason: 'scale up',
      ttl: '30m',
    });
    expect(accessRequestBody({ namespace: '', resource: ' ', ttl: '4h', reason: '' })).toEqual({ permission: 'execute_write', ttl: '4h' });
  });

  it('has its own page path', () => {
    expect(parseRoute('/access-requests')).toEqual({ page: 'access' });
    expect(routePath({ page: 'access' })).toBe('/access-requests');
  });
});
