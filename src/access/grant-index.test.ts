import { describe, expect, it } from 'vitest';
import type { AccessRequest } from '../crds/access-request.js';
import type { Principal } from '../rbac/principal.js';
import { GrantIndex } from './grant-index.js';

const now = Date.parse('2030-01-01T12:00:00Z');
const ann: Principal = { username: 'ann', role: 'user', roles: [] };
const write = { permission: 'execute_write' as const, resourceKind: 'deployments', namespace: 'shop' };

function approved(name: string, cluster?: string): AccessRequest {
  return {
    metadata: { name },
    spec: { requester: 'ann', permission: 'execute_write', namespaces: ['shop'], resources: ['deployments'], ttl: '1h', ...(cluster ? { cluster } : {}) },
    status: { phase: 'Approved', reviewer: 'boss', reviewedAt: '2030-01-01T11:30:00Z', expiresAt: '2030-01-01T12:30:00Z' },
  };
}

describe('grants per cluster', () => {
  it('a grant approved for cluster b opens b and no other cluster', () => {
    const index = new GrantIndex(() => now, 'home');
    index.upsert(approved('ar-b', 'b'));
    expect(index.checkFor('b')(ann, write)).toBe(true);
    expect(index.checkFor('home')(ann, write)).toBe(false);
    expect(index.checkFor('c')(ann, write)).toBe(false);
  });

  it('a grant without spec.cluster (kubectl apply of an older object) holds on the home cluster only', () => {
    const index = new GrantIndex(() => now, 'main');
    index.upsert(approved('ar-home'));
    expect(index.checkFor('main')(ann, write)).toBe(true);
    expect(index.checkFor('home')(ann, write)).toBe(false);
    expect(index.checkFor('b')(ann, write)).toBe(false);
    // Naming the home cluster explicitly is the same grant.
    const named = new GrantIndex(() => now, 'main');
    named.upsert(approved('ar-main', 'main'));
    expect(named.checkFor('main')(ann, write)).toBe(true);
  });
});
