import { describe, expect, it } from 'vitest';
import { parseRoute, routePath } from '../../shared/router';
import { accessRequestBody, fieldsOf } from './access-request';

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

  it('asks for every namespace and kind of a prefilled scope (an AI tool call’s accessNeeded)', () => {
    const fields = fieldsOf({ permission: 'execute_write', namespaces: ['a', 'b'], resources: ['configmaps'] });
    expect(fields).toEqual({ namespace: 'a, b', resource: 'configmaps', permission: 'execute_write' });
    expect(accessRequestBody({ ...fields, ttl: '1h', reason: '' })).toEqual({
      permission: 'execute_write',
      namespaces: ['a', 'b'],
      resources: ['configmaps'],
      ttl: '1h',
    });
  });

  it('has its own page path', () => {
    expect(parseRoute('/access-requests')).toEqual({ page: 'access' });
    expect(routePath({ page: 'access' })).toBe('/access-requests');
  });
});
