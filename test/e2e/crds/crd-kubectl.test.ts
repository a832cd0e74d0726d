import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// AccessRequests as a kubectl user meets them: the API server refuses invalid specs (CEL rules in
// crds/), the controller writes Kubernetes conditions and Events, `kubectl wait` works, and the
// printer columns read right (a future expiry, not `<invalid>`); /metrics counts the reconciles.
let service: TestService;
let user: { username: string; token: string };

const request = (name: string, spec: string): string =>
  `apiVersion: pilothouse.dev/v1alpha1\nkind: AccessRequest\nmetadata: {name: ${name}}\nspec: {${spec}}\n`;
const kubectl = (args: string[]): Promise<string> => runKubectl(clusterKubeconfig(), [...args, '-n', service.namespace]);

beforeAll(async () => {
  service = await startTestService();
  user = await service.createUser('user');
});

afterAll(async () => {
  await service?.close();
});

describe('AccessRequest objects under kubectl', () => {
  it('are refused by the API server when the TTL is out of bounds or the permission unknown', async () => {
    const cases: [string, string, RegExp][] = [
      ['too-long', `requester: ${user.username}, permission: execute_write, ttl: 48h`, /ttl must be longer than zero and at most 24h/],
      ['two-days', `requester: ${user.username}, permission: execute_write, ttl: 2d`, /ttl must be longer than zero and at most 24h/],
      ['zero', `requester: ${user.username}, permission: execute_write, ttl: 0s`, /ttl must be longer than zero and at most 24h/],
      ['odd-verb', `requester: ${user.username}, permission: impersonate, ttl: 1h`, /spec.permission: Unsupported value: "impersonate"/],
      ['bad-namespace', `requester: ${user.username}, permission: execute_write, ttl: 1h, namespaces: [Not_A_Namespace]`, /spec.namespaces\[0\]/],
      [
        'star-and-more',
        `requester: ${user.username}, permission: execute_write, ttl: 1h, namespaces: ['*', default]`,
        /"\*" \(all namespaces\) cannot be combined/,
      ],
    ];
    for (const [name, spec, message] of cases) {
      const result = await tryKubectl(clusterKubeconfig(), ['apply', '-f', '-', '-n', service.namespace], request(name, spec));
      expect(result.code, name).not.toBe(0);
      expect(result.stderr, name).toMatch(/is invalid/);
      expect(result.stderr, name).toMatch(message);
    }
    const listed = await kubectl(['get', 'accessrequests', '-o', 'name']);
    expect(listed.trim()).toBe('');
    // A whole day is the longest TTL and is accepted.
    await applyYaml(clusterKubeconfig(), request('one-day', `requester: ${user.username}, permission: execute_write, ttl: 1d`), service.namespace);
  });

  it('get conditions, Events and printer columns, and kubectl wait returns when approved', async () => {
    await applyYaml(
      clusterKubeconfig(),
      request('from-kubectl', `requester: ${user.username}, permission: execute_write, ttl: 2h, reason: incident`),
      service.namespace,
    );
    await kubectl(['wait', '--for=condition=Approved=Unknown', 'accessrequest/from-kubectl', '--timeout=30s']);
    const pending = JSON.parse(await kubectl(['get', 'accessrequest', 'from-kubectl', '-o', 'json']));
    expect(pending.status.phase).toBe('Pending');
    expect(pending.status.conditions).toEqual([
      expect.objectContaining({ type: 'Approved', status: 'Unknown', reason: 'Pending', observedGeneration: 1, lastTransitionTime: expect.any(String) }),
    ]);

    const waited = kubectl(['wait', '--for=condition=Approved', 'accessrequest/from-kubectl', '--timeout=60s']);
    const approved = await service.api('POST', '/api/access-requests/from-kubectl/approve', { token: service.adminToken, body: {} });
    expect(approved.status).toBe(200);
    expect(await waited).toMatch(/condition met/);

    const object = JSON.parse(await kubectl(['get', 'accessrequest', 'from-kubectl', '-o', 'json']));
    const condition = object.status.conditions.find((entry: { type: string }) => entry.type === 'Approved');
    expect(condition).toMatchObject({ status: 'True', reason: 'Approved', message: expect.stringContaining(object.status.expiresAt) });
    expect(Date.parse(object.status.expiresAt)).toBeGreaterThan(Date.now() + 3_500_000);

    const table = await kubectl(['get', 'accessrequests', 'from-kubectl']);
    expect(table).toMatch(/^NAME\s+REQUESTER\s+PERMISSION\s+CLUSTER\s+NAMESPACES\s+TTL\s+PHASE\s+EXPIRES\s+AGE$/m);
    expect(table).not.toContain('<invalid>');
    expect(table).toContain(object.status.expiresAt);

    await expect
      .poll(async () => kubectl(['get', 'events', '--field-selector', 'involvedObject.name=from-kubectl', '-o', 'json']), { timeout: 20_000 })
      .toMatch(/"reason": "Approved"/);
    const events = JSON.parse(await kubectl(['get', 'events', '--field-selector', 'involvedObject.name=from-kubectl', '-o', 'json'])).items;
    const reasons = events.map((event: { reason: string }) => event.reason);
    expect(reasons).toEqual(expect.arrayContaining(['Pending', 'Approved']));
    for (const event of events) {
      expect(event.involvedObject).toMatchObject({ kind: 'AccessRequest', name: 'from-kubectl', apiVersion: 'pilothouse.dev/v1alpha1' });
      expect(event.reportingComponent).toBe('pilothouse.dev/controller');
    }
  }, 120_000);

  it('count reconciles and leadership in /metrics', async () => {
    const metrics = await service.api<string>('GET', '/metrics', { token: service.adminToken });
    const text = String(metrics.body);
    expect(text).toMatch(/^pilothouse_controller_reconciles_total\{controller="accessrequest",result="success"\} [1-9]/m);
    expect(text).toMatch(/^pilothouse_controller_reconcile_duration_seconds_count\{controller="accessrequest"\} [1-9]/m);
    expect(text).toMatch(/^pilothouse_leader 1$/m);
  });
});
