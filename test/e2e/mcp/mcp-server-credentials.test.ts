import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/rbac/principal.js';
import type { RoleName } from '../../../src/config/schema.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, tryKubectl } from '../../helpers/kubectl.js';
import { followEvents } from '../../helpers/sse-follow.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// MCPServer spec.env holds the credentials Pilothouse hands the servers it starts: only admins see
// them, as /api/mcp/servers shows, by every path; Pilothouse's own namespace closes MCPServers as it
// closes Secrets (security review four, finding 3).
const other = useNamespace('mcpcreds');
const ownValue = 'own-namespace-mcp-credential';
const otherValue = 'other-namespace-mcp-credential';
let service: TestService;
let user: { username: string; token: string };
let viewer: { username: string; token: string };

const server = (name: string, value: string): string =>
  `apiVersion: pilothouse.dev/v1alpha1\nkind: MCPServer\nmetadata: {name: ${name}}\nspec: {command: npx, args: [some-server], env: {API_TOKEN: ${value}}, enabled: false}\n`;

beforeAll(async () => {
  service = await startTestService();
  [user, viewer] = await Promise.all([service.createUser('user'), service.createUser('viewer')]);
  const kubeconfig = clusterKubeconfig();
  await tryKubectl(kubeconfig, ['create', 'namespace', service.namespace]);
  await applyYaml(kubeconfig, server('own-creds', ownValue), service.namespace);
  await applyYaml(kubeconfig, server('other-creds', otherValue), other.name);
}, 120_000);

afterAll(async () => {
  await service?.close();
  await tryKubectl(clusterKubeconfig(), ['delete', 'namespace', service.namespace, '--wait=false']);
});

const get = (path: string, token: string) => service.api('GET', path, { token });
const ownPath = (suffix = ''): string => `/api/k8s/mcpservers/own-creds${suffix}?namespace=${service.namespace}`;
const otherPath = (suffix = ''): string => `/api/k8s/mcpservers/other-creds${suffix}?namespace=${other.name}`;

/** One kubectl call of the AI's tool through its policy proxy, as the agent's tool step makes it. */
async function aiKubectl(command: string, role: RoleName, mode: 'read' | 'approved' = 'read'): Promise<string> {
  const principal: Principal = { username: `ai-${role}`, role, roles: [] };
  const tool = service.deps.tools.get('kubectl');
  if (!tool) throw new Error('kubectl tool missing');
  const session = await service.deps.proxyGateway.open({ principal, mode });
  try {
    return (await tool.run({ command }, { principal, mode, proxySession: session, sessionId: 'mcp-credentials' })).output;
  } finally {
    await session.close();
  }
}

describe('MCPServer credentials in Pilothouse own namespace', () => {
  it('refuses role user the object and its YAML there, as for Secrets', async () => {
    for (const suffix of ['', '/yaml', '/describe']) {
      const response = await get(ownPath(suffix), user.token);
      expect(response.status, suffix).toBe(403);
      expect(response.body, suffix).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'own_namespace' } });
      expect(response.text, suffix).not.toContain(ownValue);
    }
  });

  it('leaves the own namespace out of role user lists and live lists across namespaces', async () => {
    const list = await get('/api/k8s/mcpservers', user.token);
    expect(list.status).toBe(200);
    const names = list.body.items.map((item: { name: string }) => item.name);
    expect(names).toContain('other-creds');
    expect(names).not.toContain('own-creds');
    expect(list.text).not.toMatch(new RegExp(`${ownValue}|${otherValue}`));
    const response = await fetch(`${service.url}/api/k8s/mcpservers/watch`, {
      headers: { Authorization: `Bearer ${user.token}`, Accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    const live = followEvents<{ items?: { name: string }[] }>(response);
    try {
      await waitFor(() => live.events.some((event) => event.event === 'snapshot'));
      const snapshot = live.events.find((event) => event.event === 'snapshot');
      // Other tests' MCPServers (the fuzzer's, in their own namespaces) may be listed too: this test's two decide.
      const shown = snapshot?.data.items?.map((item) => item.name) ?? [];
      expect(shown).toContain('other-creds');
      expect(shown).not.toContain('own-creds');
      expect(JSON.stringify(live.events)).not.toMatch(new RegExp(`${ownValue}|${otherValue}`));
    } finally {
      await live.close();
    }
  });

  it('refuses the AI kubectl of role user there, read or approved', async () => {
    for (const mode of ['read', 'approved'] as const) {
      const output = await aiKubectl(`get mcpservers own-creds -n ${service.namespace} -o yaml`, 'user', mode);
      expect(output, mode).not.toContain(ownValue);
      expect(output, mode).toMatch(/forbidden|refused/i);
    }
  });
});

describe('MCPServer env outside the own namespace', () => {
  it('is masked for role user in the JSON, YAML and describe answers, shown to admins', async () => {
    for (const suffix of ['', '/yaml', '/describe']) {
      for (const token of [user.token, viewer.token]) {
        const response = await get(otherPath(suffix), token);
        expect(response.status, suffix).toBe(200);
        expect(response.text, suffix).toContain('API_TOKEN');
        expect(response.text, suffix).not.toContain(otherValue);
      }
    }
    expect((await get(otherPath(), user.token)).body.spec.env).toEqual({ API_TOKEN: '******' });
    expect((await get(otherPath(), service.adminToken)).body.spec.env).toEqual({ API_TOKEN: otherValue });
    expect((await get(ownPath('/yaml'), service.adminToken)).text).toContain(ownValue);
  });

  it('is masked in the AI kubectl answers of role user (object, list, across namespaces), shown to admins', async () => {
    const one = await aiKubectl(`get mcpservers other-creds -n ${other.name} -o yaml`, 'user');
    expect(one).toContain('API_TOKEN');
    expect(one).not.toContain(otherValue);
    const list = await aiKubectl(`get mcpservers -n ${other.name} -o json`, 'user');
    expect(list).toContain('other-creds');
    expect(list).not.toContain(otherValue);
    const described = await aiKubectl(`describe mcpservers other-creds -n ${other.name}`, 'user');
    expect(described).toContain('other-creds');
    expect(described).not.toContain(otherValue);
    expect(await aiKubectl(`get mcpservers other-creds -n ${other.name} -o yaml`, 'admin')).toContain(otherValue);
  });
});
