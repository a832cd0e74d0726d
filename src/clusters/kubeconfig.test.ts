import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { loadClusterKubeconfigFile, parseClusterKubeconfig } from './kubeconfig.js';

const token = 'secret-token-value-0123456789';
const caData = Buffer.from('-----BEGIN CERTIFICATE-----\nnot really\n-----END CERTIFICATE-----\n').toString('base64');

type User = Record<string, unknown>;
type Cluster = Record<string, unknown>;

function kubeconfig(options: { user?: User; cluster?: Cluster; current?: string | null; extraUsers?: { name: string; user: User }[] } = {}): string {
  return yaml.dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'remote', cluster: options.cluster ?? { server: 'https://127.0.0.1:6443', 'certificate-authority-data': caData } }],
    users: [{ name: 'admin', user: options.user ?? { token } }, ...(options.extraUsers ?? [])],
    contexts: [
      { name: 'remote', context: { cluster: 'remote', user: 'admin', namespace: 'default' } },
      { name: 'other', context: { cluster: 'remote', user: 'admin' } },
    ],
    ...(options.current === null ? {} : { 'current-context': options.current ?? 'remote' }),
  });
}

/** The refusal's message (and that it is a VALIDATION_ERROR that never quotes the token). */
function refusal(text: string, options: Parameters<typeof parseClusterKubeconfig>[1] = { inlineOnly: true }): string {
  try {
    parseClusterKubeconfig(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_ERROR');
    expect((error as AppError).message).not.toContain(token);
    return (error as AppError).message;
  }
  throw new Error('the kubeconfig was accepted');
}

describe('parseClusterKubeconfig', () => {
  it('loads an inline kubeconfig with its current context, or the context given', () => {
    const loaded = parseClusterKubeconfig(kubeconfig(), { inlineOnly: true });
    expect(loaded.context).toBe('remote');
    expect(loaded.kubeConfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
    expect(loaded.kubeConfig.getCurrentUser()?.token).toBe(token);
    expect(parseClusterKubeconfig(kubeconfig(), { context: 'other', inlineOnly: true }).kubeConfig.getCurrentContext()).toBe('other');
    const clientCertificate = { 'client-certificate-data': caData, 'client-key-data': caData };
    expect(parseClusterKubeconfig(kubeconfig({ user: clientCertificate }), { inlineOnly: true }).context).toBe('remote');
  });

  it('refuses a missing context, a kubeconfig without one, and a context naming a missing cluster or user', () => {
    expect(refusal(kubeconfig(), { context: 'nope', inlineOnly: true })).toBe('context "nope" is not in the kubeconfig');
    expect(refusal(kubeconfig({ current: null }))).toMatch(/names no context/);
    const edited = (change: (document: { contexts: { context: Record<string, string> }[] }) => void): string => {
      const document = yaml.load(kubeconfig()) as { contexts: { context: Record<string, string> }[] };
      change(document);
      return yaml.dump(document);
    };
    expect(refusal(edited((document) => (document.contexts[0]!.context.user = 'ghost')))).toBe('context "remote" names a user the kubeconfig does not have');
    expect(refusal(edited((document) => (document.contexts[0]!.context.cluster = 'gone')))).toBe(
      'context "remote" names a cluster the kubeconfig does not have',
    );
  });

  it('refuses plugins and file references in a Secret, naming the entry and the key but no value', () => {
    const cases: [User | undefined, Cluster | undefined, string][] = [
      [{ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/sh', args: ['-c', 'id'] } }, undefined, 'user "admin" uses "exec"'],
      [{ 'auth-provider': { name: 'oidc', config: { 'id-token': token } } }, undefined, 'user "admin" uses "auth-provider"'],
      [{ 'client-certificate': '/etc/passwd', 'client-key-data': caData }, undefined, 'user "admin" uses "client-certificate"'],
      [{ 'client-certificate-data': caData, 'client-key': '/etc/shadow' }, undefined, 'user "admin" uses "client-key"'],
      [{ tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token' }, undefined, 'user "admin" uses "tokenFile"'],
      [{ 'token-file': '/nonexistent/token' }, undefined, 'user "admin" uses "token-file"'],
      [undefined, { server: 'https://127.0.0.1:6443', 'certificate-authority': '/etc/ssl/ca.pem' }, 'cluster "remote" uses "certificate-authority"'],
      [undefined, { server: 'https://127.0.0.1:6443', 'proxy-url': 'socks5://127.0.0.1:1080' }, 'cluster "remote" uses "proxy-url"'],
    ];
    for (const [user, cluster, reason] of cases) {
      const message = refusal(kubeconfig({ user: user ?? { token }, cluster }));
      expect(message).toContain(reason);
      expect(message).toMatch(/inline credentials only/);
      expect(message).not.toMatch(/\/etc|\/bin|\/var|nonexistent|socks5/);
    }
  });

  it('refuses a plugin in an entry the context does not use (any context may be chosen later)', () => {
    const extraUsers = [{ name: 'runner', user: { exec: { command: 'touch', args: ['/tmp/pwned'] } } }];
    expect(refusal(kubeconfig({ extraUsers }))).toContain('user "runner" uses "exec"');
  });

  it('accepts plugins and files in a kubeconfig of the configuration (not inline-only)', () => {
    const exec = { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'aws', args: ['eks', 'get-token'] } };
    expect(parseClusterKubeconfig(kubeconfig({ user: exec })).kubeConfig.getCurrentUser()?.exec).toBeDefined();
  });

  it('names only the line of a YAML error, never the text around it', () => {
    const text = `apiVersion: v1\nusers:\n- name: admin\n  user:\n    token: ${token}\n    bad: [unclosed\n`;
    expect(refusal(text)).toMatch(/^the kubeconfig is not valid YAML \(line \d+\)$/);
    expect(refusal('just a string')).toBe('the kubeconfig is not a YAML mapping');
    expect(refusal(`clusters: ${token}\ncurrent-context: x\n`)).toBe('the kubeconfig\'s "clusters" is not a list');
  });

  it('refuses a cluster without an http(s) server', () => {
    expect(refusal(kubeconfig({ cluster: { server: 'file:///etc/passwd' } }))).toBe('the cluster of context "remote" has no http(s) server URL');
    expect(refusal(kubeconfig({ cluster: { 'certificate-authority-data': caData } }))).toMatch(/not valid/);
  });
});

describe('loadClusterKubeconfigFile', () => {
  const directory = mkdtempSync(join(tmpdir(), 'cluster-kubeconfig-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('resolves file references against the file\u2019s folder and refuses an unreadable file by its path only', () => {
    const path = join(directory, 'config');
    writeFileSync(path, kubeconfig({ cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority': 'ca.pem' } }));
    const loaded = loadClusterKubeconfigFile(path, 'remote');
    expect(loaded.kubeConfig.getCurrentCluster()?.caFile).toBe(join(directory, 'ca.pem'));
    expect(() => loadClusterKubeconfigFile(join(directory, 'missing'))).toThrow(/cannot read the kubeconfig file .*missing: ENOENT/);
  });
});
