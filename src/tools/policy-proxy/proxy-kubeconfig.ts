import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** How kubectl reaches one proxy: its loopback URL, the certificate it serves (PEM) and its one-time token. */
export interface ProxyEndpoint {
  url: string;
  certificate: string;
  token: string;
}

/** The kubeconfig of one proxy: its URL, its own certificate as the only CA, its one-time token; nothing of the service. */
export function proxyKubeconfigText(endpoint: ProxyEndpoint, namespace = 'default'): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'current-context: pilothouse',
    'clusters:',
    '- name: pilothouse',
    '  cluster:',
    `    server: ${JSON.stringify(endpoint.url)}`,
    `    certificate-authority-data: ${Buffer.from(endpoint.certificate).toString('base64')}`,
    'contexts:',
    '- name: pilothouse',
    '  context:',
    '    cluster: pilothouse',
    '    user: pilothouse',
    `    namespace: ${JSON.stringify(namespace)}`,
    'users:',
    '- name: pilothouse',
    '  user:',
    `    token: ${JSON.stringify(endpoint.token)}`,
    '',
  ].join('\n');
}

/**
 * Writes the kubeconfig (0600) into a fresh private folder (0700); returns both paths. Synchronous: three
 * small local writes per tool call cost less than three trips through the thread pool on a busy machine.
 */
export function writeProxyKubeconfig(endpoint: ProxyEndpoint, parent = tmpdir()): { folder: string; kubeconfigPath: string } {
  const folder = mkdtempSync(path.join(parent, 'pilothouse-proxy-'));
  chmodSync(folder, 0o700);
  const kubeconfigPath = path.join(folder, 'kubeconfig');
  writeFileSync(kubeconfigPath, proxyKubeconfigText(endpoint), { mode: 0o600, flag: 'wx' });
  return { folder, kubeconfigPath };
}
