import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, uniqueName, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// AccessRequests and Reports as a kubectl user meets them (issue 39, item 29): the Cluster and
// Namespaces columns read right for objects made with kubectl, `kubectl explain` describes every
// field, permission delete is refused at admission, spec.requester is pinned to its creator (as
// `--as` another user), and a kubectl-made Report's file is fetched at /api/reports/{name}/download.
let service: TestService;
const kubectl = (args: string[], input?: string): Promise<string> => runKubectl(clusterKubeconfig(), [...args, '-n', service.namespace], input);
const attempt = (args: string[], input?: string) => tryKubectl(clusterKubeconfig(), [...args, '-n', service.namespace], input);
const accessRequest = (name: string, spec: string): string =>
  `apiVersion: pilothouse.dev/v1alpha1\nkind: AccessRequest\nmetadata: {name: ${name}}\nspec: {${spec}}\n`;
/** A Kubernetes user with no other rights than AccessRequests and Reports in the service's namespace, and a Pilothouse user of the same name. */
const outsider = uniqueName('kubectl-user');
let outsiderToken: string;

/** The row of `kubectl get <kind> <name>` under its header, as column name → cell (cut at the header's offsets: a cell may be empty). */
async function row(kind: string, name: string): Promise<Record<string, string>> {
  const [header = '', line = ''] = (await kubectl(['get', kind, name])).split('\n');
  const starts = [...header.matchAll(/\S+/g)].map((match) => ({ column: match[0], start: match.index }));
  return Object.fromEntries(starts.map(({ column, start }, index) => [column, line.slice(start, starts[index + 1]?.start).trim()]));
}

beforeAll(async () => {
  service = await startTestService();
  await applyYaml(
    clusterKubeconfig(),
    `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: access-requester}
rules: [{apiGroups: [pilothouse.dev], resources: [accessrequests, reports], verbs: [get, list, create, update, patch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: access-requester}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: access-requester}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: ${outsider}}]
`,
    service.namespace,
  );
  outsiderToken = (await service.createUser('user', { username: outsider })).token;
});

afterAll(async () => {
  await service?.close();
});

describe('AccessRequests and Reports under kubectl', () => {
  it('show the home cluster and the namespaces readably in kubectl get', async () => {
    await applyYaml(
      clusterKubeconfig(),
      accessRequest('two-namespaces', 'requester: someone, permission: execute_write, namespaces: [alpha, beta], ttl: 1h'),
      service.namespace,
    );
    await applyYaml(clusterKubeconfig(), accessRequest('everywhere', 'requester: someone, permission: execute_write, ttl: 1h'), service.namespace);
    await waitFor(async () => (await row('accessrequests', 'everywhere')).CLUSTER === 'home', 30_000);
    await waitFor(async () => (await row('accessrequests', 'two-namespaces')).CLUSTER === 'home', 30_000);
    expect(await row('accessrequests', 'two-namespaces')).toMatchObject({ CLUSTER: 'home', NAMESPACES: 'alpha,beta', PHASE: 'Pending' });
    expect(await row('accessrequests', 'everywhere')).toMatchObject({ CLUSTER: 'home', NAMESPACES: '*' });
  });

  it('describe every field in kubectl explain', async () => {
    for (const path of ['accessrequest.spec', 'accessrequest.status', 'report.spec', 'report.status']) {
      const explained = await kubectl(['explain', path]);
      expect(explained, path).not.toContain('<empty>');
      expect(explained, path).toMatch(/DESCRIPTION:\n\s+\S/);
    }
    expect(await kubectl(['explain', 'accessrequest.spec.permission'])).toMatch(/Deletes are admin-only and never granted/);
    expect(await kubectl(['explain', 'report.spec.type'])).toMatch(/cluster-overview/);
  });

  it('refuse permission delete at admission', async () => {
    const refused = await attempt(['apply', '-f', '-'], accessRequest('deleting', 'requester: someone, permission: delete, ttl: 1h'));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/spec.permission: Unsupported value: "delete": supported values: "execute_write"/);
    expect((await attempt(['get', 'accessrequest', 'deleting'])).code).not.toBe(0);
  });

  it("pin spec.requester to the creating user: another user's name is refused with the rule's message, one's own is kept", async () => {
    const create = (name: string, requester: string) =>
      attempt(['--as', outsider, 'create', '-f', '-'], accessRequest(name, `requester: ${requester}, permission: execute_write, ttl: 1h`));
    // The API server loads a new policy within a few seconds: a forgery accepted before that is removed and tried again.
    let refusal = '';
    await waitFor(async () => {
      const forged = await create('forged', 'alice');
      if (forged.code === 0) await kubectl(['delete', 'accessrequest', 'forged']);
      refusal = forged.stderr;
      return forged.code !== 0;
    }, 30_000);
    expect(refusal).toContain(`spec.requester must be the creating user (${outsider})`);
    expect((await create('honest', outsider)).code).toBe(0);
    const changed = await attempt(['--as', outsider, 'patch', 'accessrequest', 'honest', '--type', 'merge', '-p', '{"spec": {"requester": "alice"}}']);
    expect(changed.code).not.toBe(0);
    expect(changed.stderr).toContain('spec.requester cannot be changed');
    expect(await kubectl(['get', 'accessrequest', 'honest', '-o', 'jsonpath={.spec.requester}'])).toBe(outsider);
    // Pilothouse itself files requests for the users it acts for.
    const asked = await service.api('POST', '/api/access-requests', {
      token: (await service.createUser('user')).token,
      body: { permission: 'execute_write', ttl: '10m' },
    });
    expect(asked.status).toBe(201);
  });

  it("show a kubectl-made Report's cluster, and serve its file to its requester at /api/reports/{name}/download", async () => {
    const report = `apiVersion: pilothouse.dev/v1alpha1\nkind: Report\nmetadata: {name: made-with-kubectl}\nspec: {type: cluster-overview, format: markdown, requester: ${outsider}}\n`;
    await waitFor(async () => (await attempt(['--as', outsider, 'create', '-f', '-'], report)).code === 0, 30_000);
    let shown: Record<string, string> = {};
    await waitFor(async () => {
      shown = await row('reports', 'made-with-kubectl');
      return shown.STATUS === 'completed' || shown.STATUS === 'failed';
    }, 120_000);
    expect(shown).toMatchObject({ CLUSTER: 'home', TYPE: 'cluster-overview', STATUS: 'completed', REQUESTER: outsider });
    const file = await service.api('GET', '/api/reports/made-with-kubectl/download', { token: outsiderToken });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.md"/);
    expect(file.text).toContain(`Requested by: ${outsider}`);
  }, 150_000);
});
