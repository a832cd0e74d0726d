import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { rootDirectory, toolPath } from '../helpers/paths.js';

// charts/pilothouse rendered by the real helm (security review four, findings 10 and 12): the admin
// password and the JWT signing key reach the pod only as files of the mounted Secret, never as
// arguments or environment variables (which every child process could read from /proc/1); the
// NetworkPolicy names the API server's addresses (no default) and sends DNS to the cluster DNS pods only.
const chart = `${rootDirectory}/charts/pilothouse`;
const password = 'chart-admin-password-9f3';

interface Container {
  name: string;
  args?: string[];
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { key: string } } }[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface Document {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: any;
}

async function render(...args: string[]): Promise<Document[]> {
  const { stdout } = await promisify(execFile)(toolPath('helm'), ['template', 'pilothouse', chart, '--namespace', 'ops', ...args]);
  return (yaml.loadAll(stdout) as (Document | null)[]).filter((document): document is Document => document !== null);
}

/** Every container of the Deployment and of the helm test pod. */
function containersOf(documents: Document[]): Container[] {
  return documents.flatMap((document) => {
    if (document.kind === 'Deployment') return document.spec.template.spec.containers as Container[];
    if (document.kind === 'Pod') return document.spec.containers as Container[];
    return [];
  });
}

describe('the chart keeps the admin password and the JWT signing key out of arguments and environment', () => {
  const variants: [string, string[]][] = [
    ['defaults', []],
    ['a set adminPassword', ['--set', `adminPassword=${password}`]],
    ['existingSecret', ['--set', 'existingSecret=my-keys']],
    ['the bash tool and the shared store', ['--set', 'tools.bash.enabled=true', '--set', 'database.existingSecret=db', '--set', 'persistence.enabled=false']],
  ];

  it.each(variants)('with %s: no password or key in any container argument or environment variable', async (_name, args) => {
    const documents = await render(...args);
    const containers = containersOf(documents);
    expect(containers.map((container) => container.name).sort()).toEqual(['login', 'pilothouse']);
    for (const container of containers) {
      const argv = [...(container.command ?? []), ...(container.args ?? [])].join(' ');
      expect(argv, container.name).not.toMatch(/--admin-password(?!-file)|ADMIN_PASSWORD|JWT_SECRET/);
      expect(argv, container.name).not.toContain(password);
      for (const variable of container.env ?? []) {
        expect(variable.name, container.name).not.toMatch(/PASSWORD|JWT|SECRET|DATABASE_URL/);
        expect(['jwt-secret', 'admin-password'], `${container.name} ${variable.name}`).not.toContain(variable.valueFrom?.secretKeyRef?.key);
        expect(variable.value ?? '', container.name).not.toContain(password);
      }
    }
    const config = documents.find((document) => document.kind === 'ConfigMap' && document.data?.['config.yaml'])?.data?.['config.yaml'] ?? '';
    expect(config).not.toContain('${JWT_SECRET}');
    expect((yaml.load(config) as any).authorization.jwt).toMatchObject({ signing_key_file: '/var/run/secrets/pilothouse/jwt-secret' });
    expect((yaml.load(config) as any).authorization.jwt.signing_key).toBeUndefined();
  });

  it('mounts the Secret read-only for the pod and passes the password file by path', async () => {
    const documents = await render('--set', `adminPassword=${password}`);
    const deployment = documents.find((document) => document.kind === 'Deployment');
    const pod = deployment?.spec.template.spec;
    const container = pod.containers[0] as Container;
    const argument = container.args?.indexOf('--admin-password-file') ?? -1;
    expect(container.args?.[argument + 1]).toBe('/var/run/secrets/pilothouse/admin-password');
    expect(container.volumeMounts).toContainEqual({ name: 'keys', mountPath: '/var/run/secrets/pilothouse', readOnly: true });
    expect(pod.volumes).toContainEqual({
      name: 'keys',
      secret: {
        secretName: 'pilothouse',
        defaultMode: 0o440,
        items: [
          { key: 'jwt-secret', path: 'jwt-secret' },
          { key: 'admin-password', path: 'admin-password' },
        ],
      },
    });
    // The password is in the Secret only.
    const holders = documents.filter(
      (document) => JSON.stringify(document).includes(password) || JSON.stringify(document).includes(Buffer.from(password).toString('base64')),
    );
    expect(holders.map((document) => document.kind)).toEqual(['Secret']);
  });
});

describe('the NetworkPolicy', () => {
  it('refuses to render without the API server addresses, naming networkPolicy.apiServer.cidrs', async () => {
    await expect(render('--set', 'networkPolicy.enabled=true')).rejects.toThrow(/networkPolicy\.apiServer\.cidrs/);
    await expect(render('--set', 'networkPolicy.enabled=true', '--set', 'networkPolicy.apiServer.cidrs=null')).rejects.toThrow(
      /networkPolicy\.apiServer\.cidrs/,
    );
    expect((await render()).map((document) => document.kind)).not.toContain('NetworkPolicy');
  });

  it('allows egress only to the named API server addresses and DNS only to the cluster DNS pods', async () => {
    const documents = await render('--set', 'networkPolicy.enabled=true', '--set', 'networkPolicy.apiServer.cidrs={10.96.0.1/32,192.168.1.10/32}');
    const policy = documents.find((document) => document.kind === 'NetworkPolicy');
    const egress = policy?.spec.egress as { to?: any[]; ports: { port: number }[] }[];
    expect(JSON.stringify(egress)).not.toContain('0.0.0.0/0');
    expect(egress.every((rule) => (rule.to ?? []).length > 0)).toBe(true);
    const dns = egress.find((rule) => rule.ports.some((port) => port.port === 53));
    expect(dns?.to).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } }, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } },
    ]);
    const apiServer = egress.find((rule) => rule.ports.some((port) => port.port === 6443));
    expect(apiServer?.to).toEqual([{ ipBlock: { cidr: '10.96.0.1/32' } }, { ipBlock: { cidr: '192.168.1.10/32' } }]);
    const custom = await render(
      ...['--set', 'networkPolicy.enabled=true', '--set', 'networkPolicy.apiServer.cidrs={10.0.0.1/32}'],
      ...['--set', 'networkPolicy.dns.namespace=dns', '--set', 'networkPolicy.dns.podLabels.app=coredns', '--set', 'networkPolicy.dns.podLabels.k8s-app=null'],
    );
    const customDns = (custom.find((document) => document.kind === 'NetworkPolicy')?.spec.egress as { to: any[] }[])[0];
    expect(customDns?.to).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'dns' } }, podSelector: { matchLabels: { app: 'coredns' } } },
    ]);
  });
});
