import { describe, expect, it } from 'vitest';
import type { Principal } from './principal.js';
import { resourceRoleSchema } from '../config/schema.js';
import type { ResourceType } from '../kube/discovery.js';
import { PolicyEngine } from './policy-engine.js';
import { parseRequestInfo } from './request-info.js';

const secrets: ResourceType = { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', singular: 'secret', shortNames: [], namespaced: true, verbs: [] };
const noProdSecrets = resourceRoleSchema.parse({ name: 'no-prod-secrets', resources: ['Secret'], namespaces: ['prod'], verbs: ['*'], effect: 'deny' });

/** An engine whose discovery answers `types`, or fails when `types` is an Error. */
const engine = (types: ResourceType[] | Error) =>
  new PolicyEngine({
    definitions: [noProdSecrets],
    ownNamespace: 'pilothouse',
    resourceTypes: () => (types instanceof Error ? Promise.reject(types) : Promise.resolve(types)),
    grantCheck: () => false,
  });

const denied: Principal = { username: 'u', role: 'user', roles: ['no-prod-secrets'] };
const plain: Principal = { username: 'p', role: 'user', roles: [] };
const read = (url: string) => parseRequestInfo('GET', url);

describe('the PolicyEngine', () => {
  it('matches a deny role naming the kind through discovery', async () => {
    expect((await engine([secrets]).authorize(denied, read('/api/v1/namespaces/prod/secrets/db'), 'direct')).code).toBe('resource_role');
    expect((await engine([secrets]).authorize(denied, read('/api/v1/namespaces/dev/secrets/db'), 'direct')).allowed).toBe(true);
  });

  it('fails closed when discovery fails and resource-level roles apply, in every namespace', async () => {
    const broken = engine(new Error('discovery unavailable'));
    for (const url of ['/api/v1/namespaces/prod/secrets/db', '/api/v1/namespaces/dev/secrets/db', '/api/v1/secrets']) {
      const decision = await broken.authorize(denied, read(url), 'direct');
      expect(decision, url).toMatchObject({ allowed: false, code: 'discovery_failed' });
    }
    expect(await broken.hiddenNamespaces(denied, { apiGroup: '', resource: 'secrets' }, 'list')).toEqual({ all: true, namespaces: new Set() });
  });

  it('needs no discovery for callers no resource-level role applies to', async () => {
    expect((await engine(new Error('discovery unavailable')).authorize(plain, read('/api/v1/namespaces/dev/secrets/db'), 'direct')).allowed).toBe(true);
  });
});
