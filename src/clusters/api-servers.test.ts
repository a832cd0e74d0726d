import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.js';
import { isAppError } from '../errors.js';
import { checkOutboundUrl } from '../net/address-policy.js';
import { helmUrlPolicy, llmUrlPolicy, notificationUrlPolicy } from '../net/outbound-policies.js';
import { parseClusterKubeconfig } from './kubeconfig.js';
import { configuredProvider } from './providers.js';
import { composeClusterScopes, unreportedScopeMetrics } from './scope-factory.js';
import { apiServerUrls } from './scope-readers.js';
import { secretRegistrations } from './secrets-provider.js';
import { secretConnection } from './connections.js';

/** Outbound URL policies know every served cluster's API server (issue 34): home, `clusters:` and cluster Secrets, live. */
const directory = mkdtempSync(join(tmpdir(), 'api-servers-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const kubeconfigText = (server: string): string =>
  [
    'apiVersion: v1',
    `clusters: [{name: c, cluster: {server: "${server}"}}]`,
    'users: [{name: u, user: {token: t}}]',
    'contexts: [{name: c, context: {cluster: c, user: u}}]',
    'current-context: c',
  ].join('\n');

function kubeconfigFile(name: string, server: string): string {
  const path = join(directory, `${name}.kubeconfig`);
  writeFileSync(path, kubeconfigText(server), { mode: 0o600 });
  return path;
}

/** The refusal reason of a URL (undefined when allowed); IP addresses, so no DNS is asked. */
async function refusal(url: string, policy: Parameters<typeof checkOutboundUrl>[1]): Promise<unknown> {
  try {
    await checkOutboundUrl(url, policy, 'url', async (host) => [host]);
    return undefined;
  } catch (error) {
    return isAppError(error) ? (error.details as { reason?: string }).reason : error;
  }
}

describe('outbound URL policies and the served clusters', () => {
  it("refuse a chart, LLM or notification URL naming a second cluster's API server, and follow the clusters Secrets add and remove", async () => {
    const config = configSchema.parse({
      cluster: { name: 'home' },
      clusters: [{ name: 'second', kubeconfig: kubeconfigFile('second', 'https://10.9.8.7:6443') }],
    });
    const inputs = { config, logger: pino({ level: 'silent' }), dataDir: directory, clock: Date.now, metrics: unreportedScopeMetrics, kubectlPath: 'kubectl' };
    const home = { kubeconfigPath: kubeconfigFile('home', 'https://10.1.2.3:6443') };
    const scopes = composeClusterScopes({ ...inputs, grantCheckFor: () => () => false }, [configuredProvider(config, home)], 'eager');
    const { target, provider } = secretRegistrations(['home', 'second'], (name, source) => secretConnection(directory, name, source.kubeConfig));
    scopes.engage(provider);
    const servers = apiServerUrls(scopes.clusters);
    try {
      for (const policy of [helmUrlPolicy(config, servers), llmUrlPolicy(config, servers), notificationUrlPolicy(config, servers)]) {
        expect(await refusal('https://10.1.2.3:6443/charts/app-1.0.0.tgz', policy)).toBe('api_server_address');
        expect(await refusal('https://10.9.8.7:6443/charts/app-1.0.0.tgz', policy)).toBe('api_server_address');
        expect(await refusal('https://10.9.8.7/charts/app-1.0.0.tgz', policy)).toBeUndefined();
      }
      const chart = helmUrlPolicy(config, servers);
      const fromSecret = { ...parseClusterKubeconfig(kubeconfigText('https://10.5.5.5:6443'), { inlineOnly: true }), secret: 'third' };
      expect(await refusal('https://10.5.5.5:6443/index.yaml', chart)).toBeUndefined();
      await target.put('third', fromSecret);
      expect(scopes.clusters.has('third')).toBe(true);
      expect(await refusal('https://10.5.5.5:6443/index.yaml', chart)).toBe('api_server_address');
      await target.remove('third');
      expect(await refusal('https://10.5.5.5:6443/index.yaml', chart)).toBeUndefined();
    } finally {
      scopes.stop();
      await scopes.clusters.closeAll();
    }
  });
});
