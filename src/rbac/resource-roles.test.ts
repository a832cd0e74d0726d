import { describe, expect, it } from 'vitest';
import { resourceRoleSchema } from '../config/schema.js';
import { deniedNamespaces, effectiveRoles, evaluateRoles } from './resource-roles.js';

const role = (input: Record<string, unknown>) => resourceRoleSchema.parse(input);
const pods = ['pods', 'pod', 'po'];

describe('resource-level roles', () => {
  const readDev = role({ name: 'read-dev', resources: ['pods'], namespaces: ['dev'] });
  const noSecrets = role({ name: 'no-secrets', resources: ['secrets'], namespaces: ['*'], verbs: ['*'], effect: 'deny' });
  const noProd = role({ name: 'no-prod', resources: ['*'], namespaces: ['prod'], verbs: ['*'], effect: 'deny' });
  const deleteDev = role({ name: 'delete-dev', resources: ['pods'], namespaces: ['dev'], verbs: ['delete'] });

  it('allows what an allow role covers and says none otherwise', () => {
    expect(evaluateRoles([readDev], { names: pods, namespace: 'dev', verb: 'get' })).toBe('allow');
    expect(evaluateRoles([readDev], { names: pods, namespace: 'dev', verb: 'delete' })).toBe('none');
    expect(evaluateRoles([readDev], { names: pods, namespace: 'other', verb: 'get' })).toBe('none');
    expect(evaluateRoles([readDev], { names: ['services'], namespace: 'dev', verb: 'get' })).toBe('none');
  });

  it('lets an explicit deny override any allow, across roles', () => {
    const wide = role({ name: 'wide', resources: ['*'], namespaces: ['*'], verbs: ['*'] });
    expect(evaluateRoles([wide, noProd], { names: pods, namespace: 'prod', verb: 'get' })).toBe('deny');
    expect(evaluateRoles([wide, noProd], { names: pods, namespace: 'dev', verb: 'get' })).toBe('allow');
    expect(evaluateRoles([deleteDev, noSecrets], { names: ['secrets'], namespace: 'dev', verb: 'list' })).toBe('deny');
  });

  it('matches resource names case-insensitively and the * verb', () => {
    const upper = role({ name: 'upper', resources: ['Deployments'], namespaces: ['*'], verbs: ['*'], effect: 'deny' });
    expect(evaluateRoles([upper], { names: ['deployments', 'deployments.apps'], namespace: 'x', verb: 'patch' })).toBe('deny');
  });

  it('computes the namespaces a list across all namespaces must leave out', () => {
    expect(deniedNamespaces([readDev, noProd], { names: pods, verb: 'list' })).toEqual({ all: false, namespaces: new Set(['prod']) });
    expect(deniedNamespaces([noSecrets], { names: ['secrets'], verb: 'list' }).all).toBe(true);
    expect(deniedNamespaces([noSecrets], { names: pods, verb: 'list' })).toEqual({ all: false, namespaces: new Set() });
  });

  it('applies the roles named on the user plus the one named after the base role', () => {
    const viewerRole = role({ name: 'viewer', resources: ['secrets'], effect: 'deny' });
    const applied = effectiveRoles([readDev, noProd, viewerRole], 'viewer', ['read-dev']).map((entry) => entry.name);
    expect(applied).toEqual(['read-dev', 'viewer']);
  });
});
