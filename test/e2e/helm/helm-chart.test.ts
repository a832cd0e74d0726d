import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as yaml from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { rootDirectory, toolPath } from '../../helpers/paths.js';
import { startTestService } from '../../helpers/service.js';

// charts/pilothouse installed with the real helm into the real test cluster. KWOK runs the pod
// (no image is pulled), so the checks are the objects and what the API server's RBAC allows.

const namespace = useNamespace('helm-chart');
/** The namespace where role `user` may write (`impersonation.user.namespaces`). */
const work = useNamespace('helm-chart-work');
const chart = join(rootDirectory, 'charts/pilothouse');
const helmHome = mkdtempSync(join(tmpdir(), 'pilothouse-helm-chart-'));
const helmEnvironment = { ...process.env, HELM_CACHE_HOME: helmHome, HELM_CONFIG_HOME: helmHome, HELM_DATA_HOME: helmHome };

async function helm(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(toolPath('helm'), args, { env: helmEnvironment, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

const cluster = (...args: string[]) => helm(...args, '--kubeconfig', clusterKubeconfig(), '-n', namespace.name);
const kubectl = (...args: string[]) => runKubectl(clusterKubeconfig(), [...args, '-n', namespace.name]);
const account = (name: string) => `system:serviceaccount:${namespace.name}:${name}`;

/** The answer of `kubectl auth can-i`: true for yes, false for no; anything else (an error) throws. */
function answer(result: { stdout: string; stderr: string }): boolean {
  const text = result.stdout.trim();
  if (text !== 'yes' && text !== 'no') throw new Error(`kubectl auth can-i gave no answer: ${result.stderr}`);
  return text === 'yes';
}

/** `kubectl auth can-i` as the service account `identity` of the release namespace. */
async function canI(identity: string, ...args: string[]): Promise<boolean> {
  return answer(await tryKubectl(clusterKubeconfig(), ['auth', 'can-i', `--as=${account(identity)}`, ...args]));
}

function renderedKinds(manifest: string): string[] {
  return yaml.loadAll(manifest).flatMap((document) => (document ? [(document as { kind: string }).kind] : []));
}

afterAll(async () => {
  await helm('uninstall', 'pilothouse', '--kubeconfig', clusterKubeconfig(), '-n', namespace.name, '--ignore-not-found').catch(() => undefined);
  rmSync(helmHome, { recursive: true, force: true });
});

describe('helm chart charts/pilothouse', () => {
  it('ships the same CRDs as crds/', () => {
    const files = readdirSync(join(rootDirectory, 'crds')).filter((file) => file.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    expect(readdirSync(join(chart, 'crds')).sort()).toEqual(files.sort());
    for (const file of files) {
      expect(readFileSync(join(chart, 'crds', file), 'utf8'), `charts/pilothouse/crds/${file}`).toBe(readFileSync(join(rootDirectory, 'crds', file), 'utf8'));
    }
  });

  it('lints and renders with the default values and the optional features', async () => {
    await helm('lint', '--strict', chart);
    expect(renderedKinds(await helm('template', 'pilothouse', chart))).not.toContain('ServiceMonitor');
    const options = ['--set', 'persistence.enabled=true', '--set', 'serviceMonitor.enabled=true'];
    const kinds = renderedKinds(await helm('template', 'pilothouse', chart, ...options));
    expect(kinds).toEqual(
      expect.arrayContaining(['Deployment', 'PersistentVolumeClaim', 'ServiceMonitor', 'Service', 'ConfigMap', 'Secret', 'Role', 'ClusterRole']),
    );
    // Without adminPassword the chart generates one into its Secret: it is never printed to the pod's log.
    const secret = (yaml.loadAll(await helm('template', 'pilothouse', chart)) as { kind?: string; data?: Record<string, string> }[]).find(
      (document) => document?.kind === 'Secret',
    );
    expect(Buffer.from(secret?.data?.['admin-password'] ?? '', 'base64').toString()).toHaveLength(24);
  });

  it('lets Pilothouse create Events on investigation subjects in any namespace only while investigations are on', async () => {
    const eventRules = async (...options: string[]): Promise<unknown[]> => {
      const documents = yaml.loadAll(await helm('template', 'pilothouse', chart, ...options)) as {
        kind?: string;
        rules?: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
      }[];
      const clusterRole = documents.find(
        (document) => document?.kind === 'ClusterRole' && document.rules?.some((rule) => rule.resources.includes('tokenreviews')),
      );
      return (clusterRole?.rules ?? []).filter((rule) => rule.apiGroups.includes('events.k8s.io') && rule.verbs.includes('create'));
    };
    expect(await eventRules()).toEqual([{ apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create'] }]);
    expect(await eventRules('--set', 'config.investigations.enabled=false')).toEqual([]);
  });

  it('refuses replicas > 1 without the shared store; with it: the URL from the Secret, rolling updates with maxUnavailable 0, pods spread', async () => {
    await expect(helm('template', 'pilothouse', chart, '--set', 'replicas=3')).rejects.toThrow(
      /replicas > 1 needs the shared store: set database\.existingSecret/,
    );
    await expect(helm('template', 'pilothouse', chart, '--set', 'replicas=3', '--set', 'database.existingSecret=pg-app')).rejects.toThrow(
      /replicas > 1 needs persistence\.enabled=false/,
    );
    const ha = ['--set', 'replicas=3', '--set', 'database.existingSecret=pg-app', '--set', 'persistence.enabled=false'];
    await helm('lint', '--strict', chart, ...ha);
    const documents = yaml.loadAll(await helm('template', 'pilothouse', chart, ...ha)) as Record<string, any>[];
    const deployment = documents.find((document) => document?.kind === 'Deployment');
    expect(deployment?.spec.replicas).toBe(3);
    expect(deployment?.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
    // The URL is a file of the Secret (database.url_file), not an environment variable.
    expect(JSON.stringify(deployment?.spec.template.spec.containers[0].env)).not.toContain('PILOTHOUSE_DATABASE_URL');
    expect(deployment?.spec.template.spec.volumes).toContainEqual({
      name: 'database',
      secret: { secretName: 'pg-app', defaultMode: 0o440, items: [{ key: 'uri', path: 'url' }] },
    });
    const configFile = documents.find((document) => document?.kind === 'ConfigMap' && document.data?.['config.yaml'])?.data['config.yaml'];
    expect((yaml.load(configFile) as any).database).toEqual({ url_file: '/var/run/secrets/pilothouse-database/url' });
    expect(deployment?.spec.template.spec.topologySpreadConstraints[0]).toMatchObject({ topologyKey: 'kubernetes.io/hostname', maxSkew: 1 });
    expect(documents.map((document) => document?.kind)).toEqual(expect.arrayContaining(['PodDisruptionBudget']));
    expect(documents.map((document) => document?.kind)).not.toContain('PersistentVolumeClaim');
    const single = yaml.loadAll(await helm('template', 'pilothouse', chart)) as Record<string, any>[];
    expect(JSON.stringify(single.find((document) => document?.kind === 'Deployment'))).not.toContain('PILOTHOUSE_DATABASE_URL');
  });

  it('renders probes that never wait on the LLM, persistence, a PDB, and alert rules promtool accepts', async () => {
    const documents = yaml.loadAll(await helm('template', 'pilothouse', chart)) as Record<string, any>[];
    const deployment = documents.find((document) => document?.kind === 'Deployment');
    const container = deployment?.spec.template.spec.containers[0];
    expect(container.livenessProbe.httpGet.path).toBe('/api/livez');
    expect(container.startupProbe.httpGet.path).toBe('/api/livez');
    expect(container.readinessProbe.httpGet.path).toBe('/api/readyz');
    expect(deployment?.spec.template.spec.securityContext.runAsUser).toBe(65532);
    expect(renderedKinds(await helm('template', 'pilothouse', chart))).toEqual(expect.arrayContaining(['PersistentVolumeClaim', 'PodDisruptionBudget']));
    expect(renderedKinds(await helm('template', 'pilothouse', chart))).not.toContain('PrometheusRule');

    const options = [
      ...['--set', 'metrics.prometheusRule.enabled=true', '--set', 'metrics.grafanaDashboard.enabled=true'],
      ...['--set', 'networkPolicy.enabled=true', '--set', 'networkPolicy.apiServer.cidrs={10.0.0.1/32}'],
    ];
    const optional = yaml.loadAll(
      await helm('template', 'pilothouse', chart, ...options, '--set', 'ingress.enabled=true', '--set', 'ingress.host=ph.example'),
    ) as Record<string, any>[];
    expect(optional.map((document) => document?.kind)).toEqual(expect.arrayContaining(['PrometheusRule', 'NetworkPolicy', 'Ingress']));
    const dashboard = optional.find((document) => document?.kind === 'ConfigMap' && document.metadata.labels.grafana_dashboard === '1');
    expect(JSON.parse(dashboard?.data['pilothouse.json']).panels.length).toBeGreaterThan(5);
    const rule = optional.find((document) => document?.kind === 'PrometheusRule');
    const folder = mkdtempSync(join(tmpdir(), 'pilothouse-rules-'));
    writeFileSync(join(folder, 'rules.yaml'), yaml.dump(rule?.spec));
    const { stdout } = await promisify(execFile)('promtool', ['check', 'rules', join(folder, 'rules.yaml')]);
    expect(stdout).toMatch(/SUCCESS: 5 rules found/);
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses cluster-wide write roles for viewer and user, and user writes in its own namespace', async () => {
    await expect(helm('template', 'pilothouse', chart, '--set', 'impersonation.user.clusterRole=edit')).rejects.toThrow(/allowClusterWideWrites/);
    await expect(helm('template', 'pilothouse', chart, '--set', 'impersonation.viewer.clusterRole=cluster-admin')).rejects.toThrow(/allowClusterWideWrites/);
    await expect(helm('template', 'pilothouse', chart, '-n', 'ph', '--set', 'impersonation.user.namespaces={ph}')).rejects.toThrow(
      /must not contain the release namespace/,
    );
  });

  it('wires the bash sandbox for tools.bash.enabled: Unconfined seccomp and AppArmor for the container; a user-namespaced pod with an unmasked /proc only with tools.bash.userNamespace; the API server accepts both', async () => {
    const deploymentOf = async (...args: string[]): Promise<Record<string, any>> =>
      (yaml.loadAll(await helm('template', 'pilothouse', chart, '-n', namespace.name, ...args)) as Record<string, any>[]).find(
        (document) => document?.kind === 'Deployment',
      ) ?? {};
    const plain = await deploymentOf();
    expect(plain.spec.template.spec.hostUsers).toBeUndefined();
    expect(plain.spec.template.spec.containers[0].securityContext.seccompProfile).toBeUndefined();
    // userNamespace alone changes nothing: the bash tool is off.
    const userNamespaceOnly = await deploymentOf('--set', 'tools.bash.userNamespace=true');
    expect(userNamespaceOnly.spec.template.spec.hostUsers).toBeUndefined();
    expect(userNamespaceOnly.spec.template.spec.containers[0].securityContext.procMount).toBeUndefined();
    const unchanged = { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } };
    // Any runtime (containerd 1.6 + runc): no user namespace, the runtime's masked /proc (the sandbox's /proc is then empty).
    const deployment = await deploymentOf('--set', 'tools.bash.enabled=true');
    expect(deployment.spec.template.spec).not.toHaveProperty('hostUsers');
    expect(deployment.spec.template.spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(deployment.spec.template.spec.containers[0].securityContext).toEqual({
      ...unchanged,
      seccompProfile: { type: 'Unconfined' },
      appArmorProfile: { type: 'Unconfined' },
    });
    await runKubectl(clusterKubeconfig(), ['apply', '--dry-run=server', '-n', namespace.name, '-f', '-'], JSON.stringify(deployment));
    // Runtimes with user namespaces for pods: hostUsers false and an unmasked /proc (a fresh /proc in the sandbox).
    const namespaced = await deploymentOf('--set', 'tools.bash.enabled=true', '--set', 'tools.bash.userNamespace=true');
    expect(namespaced.spec.template.spec.hostUsers).toBe(false);
    expect(namespaced.spec.template.spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(namespaced.spec.template.spec.containers[0].securityContext).toEqual({
      ...unchanged,
      seccompProfile: { type: 'Unconfined' },
      appArmorProfile: { type: 'Unconfined' },
      procMount: 'Unmasked',
    });
    await runKubectl(clusterKubeconfig(), ['apply', '--dry-run=server', '-n', namespace.name, '-f', '-'], JSON.stringify(namespaced));
    const rendered = yaml.loadAll(await helm('template', 'pilothouse', chart, '-n', namespace.name, '--set', 'tools.bash.enabled=true')) as Record<
      string,
      any
    >[];
    const config = rendered.find((document) => document?.kind === 'ConfigMap' && document.data?.['config.yaml'])?.data['config.yaml'];
    expect((yaml.load(config) as any).tools.bash.enabled).toBe(true);
  });

  it('installs: the pod runs and the config file passes the config schema', async () => {
    // KWOK nodes have no volume provisioner: persistence (on by default) is the real node's test.
    await cluster(
      'install',
      'pilothouse',
      chart,
      '--set',
      'persistence.enabled=false',
      '--set',
      'adminPassword=chart-test-password',
      '--set',
      `impersonation.user.namespaces={${work.name}}`,
    );
    await waitFor(
      async () => (await kubectl('get', 'pods', '-l', 'app.kubernetes.io/instance=pilothouse', '-o', 'jsonpath={.items[*].status.phase}')) === 'Running',
      60_000,
    );
    for (const name of ['pilothouse', 'pilothouse-viewer', 'pilothouse-user', 'pilothouse-admin']) await kubectl('get', 'serviceaccount', name);
    await runKubectl(clusterKubeconfig(), ['get', 'clusterrole', `${namespace.name}-pilothouse`]);

    const configFile = await kubectl('get', 'configmap', 'pilothouse', '-o', 'jsonpath={.data.config\\.yaml}');
    const config = parseConfig(yaml.load(configFile), {});
    expect(config.kubernetes.namespace).toBe(namespace.name);
    // The signing key is the mounted Secret's file, never in the config or the environment.
    expect(config.authorization.jwt.signing_key).toBeUndefined();
    expect(config.authorization.jwt.signing_key_file).toBe('/var/run/secrets/pilothouse/jwt-secret');
    expect(config.authorization.impersonation).toEqual({
      enabled: true,
      mode: 'role',
      mappings: { viewer: account('pilothouse-viewer'), user: account('pilothouse-user'), admin: account('pilothouse-admin') },
    });
    expect(config.metrics.public).toBe(true);
    expect(await kubectl('get', 'service', 'pilothouse', '-o', 'jsonpath={.metadata.annotations.prometheus\\.io/scrape}')).toBe('true');
  });

  it('lets Pilothouse impersonate the three role accounts of its namespace only', async () => {
    expect(await canI('pilothouse', 'impersonate', 'serviceaccounts/pilothouse-viewer', '-n', namespace.name)).toBe(true);
    expect(await canI('pilothouse', 'impersonate', 'serviceaccounts/pilothouse-admin', '-n', namespace.name)).toBe(true);
    expect(await canI('pilothouse', 'impersonate', 'serviceaccounts/other', '-n', namespace.name)).toBe(false);
    expect(await canI('pilothouse', 'impersonate', 'serviceaccounts/pilothouse-viewer', '-n', 'default')).toBe(false);
    expect(await canI('pilothouse', 'impersonate', 'users/admin')).toBe(false);
  });

  it('gives the role accounts view, edit in the listed namespaces only, and cluster-admin', async () => {
    expect(await canI('pilothouse-viewer', 'list', 'pods', '-n', namespace.name)).toBe(true);
    expect(await canI('pilothouse-viewer', 'create', 'deployments', '-n', work.name)).toBe(false);
    expect(await canI('pilothouse-user', 'list', 'pods', '-n', 'default')).toBe(true);
    expect(await canI('pilothouse-user', 'create', 'deployments', '-n', work.name)).toBe(true);
    expect(await canI('pilothouse-user', 'get', 'secrets', '-n', work.name)).toBe(true);
    expect(await canI('pilothouse-user', 'create', 'deployments', '-n', 'default')).toBe(false);
    expect(await canI('pilothouse-user', 'create', 'clusterroles')).toBe(false);
    expect(await canI('pilothouse-admin', 'create', 'clusterroles')).toBe(true);
    // What every dashboard shows, read-only and without Secrets.
    for (const identity of ['pilothouse-viewer', 'pilothouse-user']) {
      for (const resource of [
        'nodes',
        'persistentvolumes',
        'storageclasses.storage.k8s.io',
        'customresourcedefinitions.apiextensions.k8s.io',
        'namespaces',
        'nodes.metrics.k8s.io',
      ]) {
        expect(await canI(identity, 'list', resource), `${identity} list ${resource}`).toBe(true);
      }
      expect(await canI(identity, 'delete', 'nodes')).toBe(false);
      expect(await canI(identity, 'get', 'secrets', '-n', namespace.name)).toBe(false);
    }
  });

  it("lets neither viewer nor user climb to admin through Pilothouse's namespace", async () => {
    const climbs: string[][] = [
      ['get', 'secrets/pilothouse'],
      ['list', 'secrets'],
      ['create', 'pods', '--subresource=exec'],
      ['create', 'pods', '--subresource=attach'],
      ['create', 'pods', '--subresource=portforward'],
      ['create', 'pods'],
      ['patch', 'deployments/pilothouse'],
      ['update', 'configmaps/pilothouse'],
      ['patch', 'mcpservers.pilothouse.dev'],
      ['update', 'accessrequests.pilothouse.dev', '--subresource=status'],
      ['update', 'leases.coordination.k8s.io'],
      ['create', 'serviceaccounts/pilothouse', '--subresource=token'],
      ['impersonate', 'serviceaccounts/pilothouse-admin'],
    ];
    for (const identity of ['pilothouse-viewer', 'pilothouse-user']) {
      for (const climb of climbs) expect(await canI(identity, ...climb, '-n', namespace.name), `${identity}: ${climb.join(' ')}`).toBe(false);
      expect(await canI(identity, 'get', 'secrets', '-A'), `${identity}: get secrets -A`).toBe(false);
      expect(await canI(identity, 'create', 'pods', '--subresource=exec', '-A'), `${identity}: exec -A`).toBe(false);
    }
  });

  it("answers 403 to a user's requests for Pilothouse's Secret and pod through the HTTP API, with the chart's identities", async () => {
    const roles = { viewer: account('pilothouse-viewer'), user: account('pilothouse-user'), admin: account('pilothouse-admin') };
    const service = await startTestService({
      config: { kubernetes: { namespace: namespace.name }, authorization: { impersonation: { enabled: true, mappings: roles } } },
    });
    try {
      const user = await service.createUser('user');
      const pod = await kubectl('get', 'pods', '-l', 'app.kubernetes.io/instance=pilothouse', '-o', 'jsonpath={.items[0].metadata.name}');
      const refusals = [
        await service.api('GET', `/api/k8s/secrets/pilothouse?namespace=${namespace.name}`, { token: user.token }),
        await service.api('GET', `/api/k8s/secrets/pilothouse/yaml?namespace=${namespace.name}`, { token: user.token }),
        await service.api('POST', `/api/pods/${pod}/exec`, { token: user.token, body: { namespace: namespace.name, command: ['cat', '/proc/1/environ'] } }),
        await service.api('GET', `/api/k8s/configmaps/pilothouse?namespace=${namespace.name}`, { token: user.token }),
      ];
      for (const response of refusals) {
        expect(response.status).toBe(403);
        expect(response.body.details.reason).toBe('own_namespace');
        expect(response.text).not.toContain('jwt-secret');
      }
      await runKubectl(clusterKubeconfig(), ['create', 'secret', 'generic', 'app', '-n', work.name, '--from-literal=k=v']);
      expect((await service.api('GET', `/api/k8s/secrets/app?namespace=${work.name}`, { token: user.token })).status).toBe(200);
      // The cluster refuses the same read to the user identity even where Pilothouse's policy is not asked.
      expect((await service.api('GET', '/api/k8s/secrets/app?namespace=default', { token: user.token })).status).toBe(403);
    } finally {
      await service.close();
    }
  });

  it('lets Pilothouse read everything, run its controllers and install only its CRDs', async () => {
    expect(await canI('pilothouse', 'list', 'pods', '-A')).toBe(true);
    expect(await canI('pilothouse', 'watch', 'nodes')).toBe(true);
    expect(await canI('pilothouse', 'create', 'deployments', '-n', namespace.name)).toBe(false);
    expect(await canI('pilothouse', 'create', 'leases.coordination.k8s.io', '-n', namespace.name)).toBe(true);
    expect(await canI('pilothouse', 'create', 'leases.coordination.k8s.io', '-n', 'default')).toBe(false);
    expect(await canI('pilothouse', 'update', 'accessrequests.pilothouse.dev', '--subresource=status', '-n', namespace.name)).toBe(true);
    expect(await canI('pilothouse', 'update', 'accessrequests.pilothouse.dev', '--subresource=status', '-n', 'default')).toBe(false);
    expect(await canI('pilothouse', 'patch', 'customresourcedefinitions/accessrequests.pilothouse.dev')).toBe(true);
    expect(await canI('pilothouse', 'patch', 'customresourcedefinitions/widgets.example.com')).toBe(false);
    // No Secrets outside its namespace (Helm release Secrets are read as the caller); its own report file copies there.
    expect(await canI('pilothouse', 'list', 'secrets', '-A')).toBe(false);
    expect(await canI('pilothouse', 'get', 'secrets', '-n', 'default')).toBe(false);
    expect(await canI('pilothouse', 'watch', 'secrets', '-n', work.name)).toBe(false);
    expect(await canI('pilothouse', 'list', 'secrets', '-n', namespace.name)).toBe(true);
    // What the shared caches, the list-access reviews, the start-up checks and token mode read or create.
    for (const resource of [
      'configmaps',
      'nodes',
      'namespaces',
      'deployments.apps',
      'cronjobs.batch',
      'ingresses.networking.k8s.io',
      'rolebindings.rbac.authorization.k8s.io',
      'clusterroles.rbac.authorization.k8s.io',
      'nodes.metrics.k8s.io',
      'validatingadmissionpolicies.admissionregistration.k8s.io',
      'customresourcedefinitions.apiextensions.k8s.io',
    ]) {
      expect(await canI('pilothouse', 'watch', resource, '-A'), resource).toBe(true);
    }
    expect(await canI('pilothouse', 'create', 'tokenreviews.authentication.k8s.io')).toBe(true);
    expect(await canI('pilothouse', 'create', 'events.events.k8s.io', '-n', namespace.name)).toBe(true);
    // Investigations put an Event on their subject, in its namespace: create only, never read back, changed or deleted there.
    expect(await canI('pilothouse', 'create', 'events.events.k8s.io', '-n', work.name)).toBe(true);
    expect(await canI('pilothouse', 'patch', 'events.events.k8s.io', '-n', work.name)).toBe(false);
    expect(await canI('pilothouse', 'delete', 'events.events.k8s.io', '-n', work.name)).toBe(false);
    expect(await canI('pilothouse', 'create', 'pods', '--subresource=exec', '-A')).toBe(false);
    // MCPServer objects run commands on Pilothouse's host and PortForwards open its listeners:
    // of the role identities only the admin one may create them.
    for (const kind of ['mcpservers.pilothouse.dev', 'portforwards.pilothouse.dev']) {
      expect(await canI('pilothouse-viewer', 'create', kind, '-n', namespace.name), kind).toBe(false);
      expect(await canI('pilothouse-user', 'create', kind, '-n', namespace.name), kind).toBe(false);
      expect(await canI('pilothouse-user', 'patch', kind, '-n', namespace.name), kind).toBe(false);
      expect(await canI('pilothouse-admin', 'create', kind, '-n', namespace.name), kind).toBe(true);
    }
  });

  it('impersonates for real with the service account token', async () => {
    const token = (await kubectl('create', 'token', 'pilothouse', '--duration=10m')).trim();
    const asPilothouse = (...args: string[]) => tryKubectl(clusterKubeconfig(), ['--token', token, '-n', namespace.name, ...args]);
    expect(answer(await asPilothouse('--as', account('pilothouse-user'), 'auth', 'can-i', 'create', 'deployments', '-n', work.name))).toBe(true);
    expect(answer(await asPilothouse('--as', account('pilothouse-user'), 'auth', 'can-i', 'get', 'secrets'))).toBe(false);
    expect(answer(await asPilothouse('--as', account('pilothouse-viewer'), 'auth', 'can-i', 'create', 'deployments'))).toBe(false);
    const refused = await asPilothouse('--as', account('default'), 'get', 'pods');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/cannot impersonate/);
  });

  it('runs its controllers, caches and reports as its own ServiceAccount', async () => {
    // A service whose kubeconfig holds a token of the chart's ServiceAccount: what the pod would run as.
    const token = (await kubectl('create', 'token', 'pilothouse', '--duration=30m')).trim();
    const kubeconfig = JSON.parse(await runKubectl(clusterKubeconfig(), ['config', 'view', '--raw', '--minify', '-o', 'json']));
    kubeconfig.users = [{ name: 'pilothouse', user: { token } }];
    kubeconfig.contexts[0].context.user = 'pilothouse';
    const kubeconfigPath = join(helmHome, 'pilothouse-sa.kubeconfig');
    writeFileSync(kubeconfigPath, JSON.stringify(kubeconfig), { mode: 0o600 });
    const roles = { viewer: account('pilothouse-viewer'), user: account('pilothouse-user'), admin: account('pilothouse-admin') };
    // A test service above ran as the cluster admin and applied the Report admission policy naming that user:
    // the upgrade puts back the chart's, which names the ServiceAccount.
    await cluster('upgrade', 'pilothouse', chart, '--reuse-values');
    const service = await startTestService({
      kubeconfig: kubeconfigPath,
      config: { kubernetes: { namespace: namespace.name }, authorization: { impersonation: { enabled: true, mappings: roles } } },
    });
    try {
      const user = await service.createUser('user');
      // An AccessRequest applied with kubectl is reconciled (conditions, Events) by the leader under the ServiceAccount.
      // Filed for another user, so applied as the ServiceAccount: anyone else must name themselves (the requester policy).
      const manifest = `apiVersion: pilothouse.dev/v1alpha1\nkind: AccessRequest\nmetadata: {name: as-service-account}\nspec: {requester: ${user.username}, permission: execute_write, ttl: 1h, reason: chart}\n`;
      // The API server loads the policy the upgrade restored within a few seconds: a server-side dry run (admission
      // runs, nothing is stored) shows when it holds, then the real apply is refused.
      await expect
        .poll(async () => (await tryKubectl(clusterKubeconfig(), ['apply', '--dry-run=server', '-n', namespace.name, '-f', '-'], manifest)).stderr, {
          timeout: 30_000,
        })
        .toMatch(/spec.requester must be the creating user/);
      const forged = await tryKubectl(clusterKubeconfig(), ['apply', '-n', namespace.name, '-f', '-'], manifest);
      expect(forged.stderr).toMatch(/spec.requester must be the creating user/);
      await runKubectl(kubeconfigPath, ['apply', '-n', namespace.name, '-f', '-'], manifest);
      await kubectl('wait', '--for=condition=Approved=Unknown', 'accessrequest/as-service-account', '--timeout=60s');
      const waited = kubectl('wait', '--for=condition=Approved', 'accessrequest/as-service-account', '--timeout=60s');
      expect((await service.api('POST', '/api/access-requests/as-service-account/approve', { token: service.adminToken, body: {} })).status).toBe(200);
      expect(await waited).toMatch(/condition met/);
      await expect
        .poll(async () => kubectl('get', 'events', '--field-selector', 'involvedObject.name=as-service-account', '-o', 'jsonpath={.items[*].reason}'), {
          timeout: 20_000,
        })
        .toMatch(/Approved/);
      expect(await kubectl('get', 'lease', '-o', 'name')).not.toBe('');
      // Lists come from the shared caches under the ServiceAccount; Secrets, which it may not list, as the caller.
      const pods = await service.api('GET', `/api/k8s/pods?namespace=${namespace.name}`, { token: service.adminToken });
      expect(pods.status, pods.text).toBe(200);
      expect(pods.text).toContain('pilothouse');
      const secrets = await service.api('GET', `/api/k8s/secrets?namespace=${work.name}`, { token: service.adminToken });
      expect(secrets.status, secrets.text).toBe(200);
      // A report is generated and its file copied into Secrets of the release namespace.
      // The API server loads the restored policy within a few seconds.
      const requestReport = () =>
        service.api<{ id: string }>('POST', '/api/reports', { token: service.adminToken, body: { type: 'cluster-overview', format: 'json' } });
      let report = await requestReport();
      await waitFor(async () => {
        if (report.status !== 202) report = await requestReport();
        return report.status === 202;
      }, 30_000);
      await waitFor(async () => (await kubectl('get', 'report', report.body.id, '-o', 'jsonpath={.status.phase}')) === 'completed', 90_000);
      expect(await kubectl('get', 'secrets', '-l', `pilothouse.dev/report=${report.body.id}`, '-o', 'name')).toMatch(/report-file-/);
    } finally {
      await service.close();
    }
  }, 180_000);

  it('lets Pilothouse keep report file copies in its namespace, and ties kubectl-created Reports to their creator', async () => {
    expect(await canI('pilothouse', 'create', 'secrets', '-n', namespace.name)).toBe(true);
    expect(await canI('pilothouse', 'deletecollection', 'secrets', '-n', namespace.name)).toBe(true);
    expect(await canI('pilothouse', 'create', 'secrets', '-n', 'default')).toBe(false);
    const report = (name: string, requester: string): string =>
      `{"apiVersion": "pilothouse.dev/v1alpha1", "kind": "Report", "metadata": {"name": "${name}"}, "spec": {"type": "cluster-overview", "format": "pdf", "requester": "${requester}"}}`;
    // As the chart's admin role account (it may create our kinds; it is not Pilothouse's own ServiceAccount).
    // (Not as the test's kubeconfig user: a test service above ran as that user and installed the policy exempting it.)
    const me = account('pilothouse-admin');
    const create = (name: string, requester: string) =>
      tryKubectl(clusterKubeconfig(), ['--as', me, 'create', '-n', namespace.name, '-f', '-'], report(name, requester));
    // The API server loads a new policy within a few seconds; a Report created before that is removed and tried again.
    let refusal = '';
    await waitFor(async () => {
      const forged = await create('forged', 'someone-else');
      if (forged.code === 0) await kubectl('delete', 'report', 'forged');
      refusal = forged.stderr;
      return forged.code !== 0;
    }, 30_000);
    expect(refusal).toContain(`spec.requester must be the creating user (${me})`);
    expect((await create('honest', me)).code).toBe(0);
    await kubectl('delete', 'report', 'honest');
  });

  it('keeps the JWT signing key and the generated admin password on upgrades and renders, and removes its cluster objects on uninstall', async () => {
    const secretData = async (): Promise<string> => kubectl('get', 'secret', 'pilothouse', '-o', 'jsonpath={.data}');
    // Install-time values set adminPassword: drop it, so the chart keeps the password it finds in the Secret.
    await cluster('upgrade', 'pilothouse', chart, '--reuse-values', '--set', 'adminPassword=');
    const before = JSON.parse(await secretData());
    expect(Buffer.from(before['admin-password'], 'base64').toString()).toBe('chart-test-password');
    await cluster('upgrade', 'pilothouse', chart, '--reuse-values', '--set', 'podAnnotations.upgraded=yes');
    expect(JSON.parse(await secretData())).toEqual(before);
    // A render against the cluster (lookup) twice gives the Secret already there, byte for byte.
    for (let render = 0; render < 2; render += 1) {
      const documents = yaml.loadAll(await cluster('template', 'pilothouse', chart, '--dry-run=server', '--set', 'persistence.enabled=false')) as Record<
        string,
        any
      >[];
      expect(documents.find((document) => document?.kind === 'Secret')?.data).toEqual(before);
    }
    // existingSecret: no Secret of the chart's, the pod reads the one named.
    const external = yaml.loadAll(await helm('template', 'pilothouse', chart, '--set', 'existingSecret=my-keys')) as Record<string, any>[];
    expect(external.map((document) => document?.kind)).not.toContain('Secret');
    const volumes = external.find((document) => document?.kind === 'Deployment')?.spec.template.spec.volumes;
    expect(volumes.find((volume: any) => volume.name === 'keys')?.secret.secretName).toBe('my-keys');
    await cluster('uninstall', 'pilothouse', '--wait');
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'clusterrole', `${namespace.name}-pilothouse`])).code).not.toBe(0);
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'clusterrolebinding', `${namespace.name}-pilothouse-admin`])).code).not.toBe(0);
    expect((await tryKubectl(clusterKubeconfig(), ['get', 'rolebinding', `${namespace.name}-pilothouse-user`, '-n', work.name])).code).not.toBe(0);
  });
});
