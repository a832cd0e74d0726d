import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/rbac/principal.js';
import { ensureUserFolder } from '../../../src/tools/builtin/user-files.js';
import { clusterKubeconfig, uniqueName, useNamespace } from '../../helpers/cluster.js';
import { tryKubectl } from '../../helpers/kubectl.js';
import { startTestService, type ApiResponse, type TestService } from '../../helpers/service.js';

// Security review four, finding 4 (issue 34 item 8): a server-side apply creates the object when it does not exist,
// which kube-apiserver authorizes as `create`. Pilothouse decides it as `patch` and `create` of that name on every
// path: the apply route (web editor, TUI) and a PATCH with application/apply-patch+yaml through the AI's policy
// proxy (`kubectl apply --server-side`). A resource-level role that denies `create` refuses both; a role that allows
// patch and create lets both through.
const space = useNamespace('ssa-policy');
const filesRoot = mkdtempSync(join(tmpdir(), 'pilothouse-ssa-files-'));
let service: TestService;
/** A signed-in caller and the principal the agent would run their approved tool calls as. */
type Caller = { token: string; principal: Principal };
/** Role admin with a resource-level role denying `create` of ConfigMaps in the namespace. */
let noCreate: Caller;
/** Role user with a resource-level role allowing `patch` and `create` of ConfigMaps in the namespace. */
let patchAndCreate: Caller;
/** Role user with a resource-level role allowing `patch` only. */
let patchOnly: Caller;
const roles = { noCreate: 'ssa-no-create', patchAndCreate: 'ssa-patch-create', patchOnly: 'ssa-patch-only' };

async function caller(role: Principal['role'], roleName: string): Promise<Caller> {
  const user = await service.createUser(role, { roles: [roleName] });
  return { token: user.token, principal: { username: user.username, role, roles: [roleName] } };
}

const manifest = (name: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${space.name}\ndata:\n  from: ssa-policy\n`;
const exists = async (name: string): Promise<boolean> => (await tryKubectl(clusterKubeconfig(), ['get', 'configmap', name, '-n', space.name])).code === 0;

/** The apply route, as the web editor and the TUI call it. */
function applyRoute(name: string, token: string): Promise<ApiResponse> {
  return service.api('POST', '/api/k8s/configmaps/apply', { token, body: manifest(name), headers: { 'Content-Type': 'application/yaml' } });
}

/** The AI's `kubectl apply --server-side -f` through its policy proxy (an approved call), the manifest in the caller's files folder. */
async function applyThroughProxy(name: string, { principal }: Caller): Promise<{ output: string; isError: boolean }> {
  await writeFile(join(await ensureUserFolder(filesRoot, principal.username), `${name}.yaml`), manifest(name));
  const kubectl = service.deps.tools.get('kubectl');
  if (!kubectl) throw new Error('the kubectl tool is missing');
  const session = await service.deps.proxyGateway.open({ principal, mode: 'approved' });
  try {
    return await kubectl.run({ command: `apply --server-side -f ${name}.yaml` }, { principal, mode: 'approved', proxySession: session });
  } finally {
    await session.close();
  }
}

beforeAll(async () => {
  const configMaps = { resources: ['configmaps'], namespaces: [space.name] };
  service = await startTestService({
    config: {
      tools: { files: { root: filesRoot } },
      authorization: {
        roles: [
          { name: roles.noCreate, ...configMaps, verbs: ['create'], effect: 'deny' },
          { name: roles.patchAndCreate, ...configMaps, verbs: ['patch', 'create'], effect: 'allow' },
          { name: roles.patchOnly, ...configMaps, verbs: ['patch'], effect: 'allow' },
        ],
      },
    } as never,
  });
  noCreate = await caller('admin', roles.noCreate);
  patchAndCreate = await caller('user', roles.patchAndCreate);
  patchOnly = await caller('user', roles.patchOnly);
});

afterAll(async () => {
  await service?.close();
  rmSync(filesRoot, { recursive: true, force: true });
});

describe('a server-side apply is decided as patch and create of its object, on every path', () => {
  it('refuses an apply of a new object through the apply route to a role that denies create (403 resource_role)', async () => {
    const name = uniqueName('route-denied');
    const refused = await applyRoute(name, noCreate.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'FORBIDDEN',
      details: { reason: 'resource_role', verb: 'create', resource: 'configmaps', namespace: space.name },
    });
    expect(await exists(name)).toBe(false);
  });

  it('refuses the AI’s kubectl apply --server-side of a new object through the policy proxy to a role that denies create', async () => {
    const name = uniqueName('proxy-denied');
    const refused = await applyThroughProxy(name, noCreate);
    expect(refused.isError).toBe(true);
    expect(refused.output).toContain(`a resource-level role denies create configmaps ${name} in namespace ${space.name}`);
    expect(await exists(name)).toBe(false);
  });

  it('lets a role that allows patch and create apply through the route and through the proxy', async () => {
    const viaRoute = uniqueName('route-allowed');
    const created = await applyRoute(viaRoute, patchAndCreate.token);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ created: true, object: { metadata: { name: viaRoute } } });
    expect(await exists(viaRoute)).toBe(true);

    const viaProxy = uniqueName('proxy-allowed');
    const applied = await applyThroughProxy(viaProxy, patchAndCreate);
    expect(applied).toMatchObject({ isError: false, output: expect.stringContaining(`configmap/${viaProxy} serverside-applied`) });
    expect(await exists(viaProxy)).toBe(true);
  });

  it('refuses a role that allows patch only on both paths alike (an apply may create)', async () => {
    const viaRoute = uniqueName('route-patch-only');
    const refused = await applyRoute(viaRoute, patchOnly.token);
    expect(refused.status).toBe(403);
    expect(refused.body.details).toMatchObject({ reason: 'approval_required', verb: 'create', resource: 'configmaps' });
    const viaProxy = uniqueName('proxy-patch-only');
    const proxied = await applyThroughProxy(viaProxy, patchOnly);
    expect(proxied.isError).toBe(true);
    expect(proxied.output).toContain(`needs an approved access request to execute write (create configmaps ${viaProxy} in namespace ${space.name})`);
    expect(await exists(viaRoute)).toBe(false);
    expect(await exists(viaProxy)).toBe(false);
  });
});
