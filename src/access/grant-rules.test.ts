import { describe, expect, it } from 'vitest';
import type { AccessRequest } from '../crds/access-request.js';
import { currentPhase, expiryOf, grantCovers, specProblem, ttlProblem } from './grant-rules.js';

const now = Date.parse('2030-01-01T12:00:00Z');

function grant(spec: Partial<AccessRequest['spec']> = {}, status: AccessRequest['status'] = {}): AccessRequest {
  return {
    metadata: { name: 'ar-1' },
    spec: { requester: 'ann', permission: 'execute_write', namespaces: ['dev'], resources: ['deployments'], ttl: '1h', ...spec },
    status: { phase: 'Approved', reviewer: 'boss', reviewedAt: '2030-01-01T11:30:00Z', expiresAt: '2030-01-01T12:30:00Z', ...status },
  };
}

describe('grant rules', () => {
  it('checks TTLs and refuses delete grants', () => {
    expect(ttlProblem('30m')).toBeUndefined();
    expect(ttlProblem('0s')).toMatch(/longer than zero/);
    expect(ttlProblem('25h')).toMatch(/maximum of 24h/);
    expect(specProblem(grant({ permission: 'delete' }).spec)).toMatch(/admin-only/);
    expect(expiryOf(grant().spec, '2030-01-01T11:30:00Z')).toBe('2030-01-01T12:30:00.000Z');
  });

  it('reads an approval past its expiry as Expired and a missing status as Pending', () => {
    expect(currentPhase(grant(), now)).toBe('Approved');
    expect(currentPhase(grant({}, { expiresAt: '2030-01-01T11:59:59Z' }), now)).toBe('Expired');
    expect(currentPhase({ ...grant(), status: undefined }, now)).toBe('Pending');
  });

  it('covers only the granted permission, namespaces and kinds', () => {
    const action = { permission: 'execute_write' as const, resourceKind: 'deployments', namespace: 'dev' };
    expect(grantCovers(grant(), action, now)).toBe(true);
    expect(grantCovers(grant({ resources: ['Deployments.apps'] }), action, now)).toBe(true);
    expect(grantCovers(grant(), { ...action, namespace: 'prod' }, now)).toBe(false);
    expect(grantCovers(grant(), { ...action, resourceKind: 'statefulsets' }, now)).toBe(false);
    expect(grantCovers(grant(), { permission: 'execute_write' }, now)).toBe(false);
    expect(grantCovers(grant({ namespaces: [], resources: ['*'] }), { permission: 'execute_write' }, now)).toBe(true);
    expect(grantCovers(grant(), { ...action, permission: 'delete' }, now)).toBe(false);
  });

  it('never honours expired, unreviewed or self-reviewed grants', () => {
    const action = { permission: 'execute_write' as const, resourceKind: 'deployments', namespace: 'dev' };
    expect(grantCovers(grant({}, { expiresAt: '2030-01-01T11:00:00Z' }), action, now)).toBe(false);
    expect(grantCovers(grant({}, { reviewer: 'ann' }), action, now)).toBe(false);
    expect(grantCovers(grant({}, { phase: 'Pending' }), action, now)).toBe(false);
  });
});
