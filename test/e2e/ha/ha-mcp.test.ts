import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer } from '../../../src/mcp/client/test-servers.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startPostgres, type RunningPostgres } from '../../helpers/postgres.js';
import { startTestService, type TestService } from '../../helpers/service.js';

// Tools of MCPServer objects on every replica (ADR 0032): two replicas of one release (one Pilothouse
// namespace, one leader Lease) on one throw-away PostgreSQL; the MCP server is the real `everything` server.
let postgres: RunningPostgres;
let replicas: [TestService, TestService];
const own = useNamespace('ha-mcp-ph');

beforeAll(async () => {
  postgres = await startPostgres();
  const config = {
    database: { url: postgres.url, timeout: '2s' },
    authorization: { jwt: { signing_key: randomBytes(32).toString('hex') } },
    kubernetes: { namespace: own.name, leader_election: true },
  };
  replicas = [await startTestService({ config }), await startTestService({ config })];
  await waitFor(() => replicas.some((replica) => replica.deps.controllers.isLeader), 30_000);
}, 120_000);

afterAll(async () => {
  await Promise.all((replicas ?? []).map((replica) => replica.close()));
  postgres?.remove();
});

interface ShownServer {
  name: string;
  source: string;
  tools: string[];
  status: { phase: string };
}

describe('MCP servers of MCPServer objects on every replica', () => {
  it('the replica that does not lead connects too: both list the tools and a call on it runs; the object status is written', { timeout: 90_000 }, async () => {
    const leaders = replicas.filter((replica) => replica.deps.controllers.isLeader);
    expect(leaders).toHaveLength(1);
    const follower = replicas.find((replica) => !replica.deps.controllers.isLeader)!;
    const { command, args } = everythingServer('shared-tools');
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: pilothouse.dev/v1alpha1\nkind: MCPServer\nmetadata: {name: shared-tools}\nspec:\n  command: ${command}\n  args: ${JSON.stringify(args)}\n`,
      own.name,
    );
    for (const replica of replicas) {
      const token = await replica.login();
      await waitFor(async () => {
        const listed = await replica.api('GET', '/api/mcp/servers', { token });
        const shown = (listed.body as { items: ShownServer[] }).items.find((item) => item.name === 'shared-tools');
        return shown?.status.phase === 'connected' && shown.tools.includes('echo');
      }, 30_000);
      // Connected by this replica itself (not the object's status another replica wrote).
      expect(replica.deps.mcp.manager.get('shared-tools')?.status.phase).toBe('connected');
    }
    expect(await follower.deps.mcp.manager.call('echo', { message: 'from the follower' })).toMatchObject({
      isError: false,
      output: expect.stringContaining('from the follower'),
    });
    const status = JSON.parse(await runKubectl(clusterKubeconfig(), ['get', 'mcpservers.pilothouse.dev', 'shared-tools', '-n', own.name, '-o', 'json'])) as {
      status?: { phase?: string; tools?: string[] };
    };
    expect(status.status).toMatchObject({ phase: 'connected', tools: expect.arrayContaining(['echo']) });
  });
});
