import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The kubeconfig of one proxy: its loopback URL and one-time token, nothing of the service. */
export function proxyKubeconfigText(url: string, token: string, namespace = 'default'): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'current-context: pilothouse',
    'clusters:',
    '- name: pilothouse',
    '  cluster:',
    `    server: ${JSON.stringify(url)}`,
    'contexts:',
    '- name: pilothouse',
    '  context:',
    '    cluster: pilothouse',
    '    user: pilothouse',
    `    namespace: ${JSON.stringify(namespace)}`,
    'users:',
    '- name: pilothouse',
    '  user:',
    `    token: ${JSON.stringify(token)}`,
    '',
  ].join('\n');
}

/** Writes the kubeconfig (0600) into a fresh private folder (0700); returns both paths. */
export async function writeProxyKubeconfig(url: string, token: string, parent = tmpdir()): Promise<{ folder: string; kubeconfigPath: string }> {
  const folder = await mkdtemp(path.join(parent, 'pilothouse-proxy-'));
  await chmod(folder, 0o700);
  const kubeconfigPath = path.join(folder, 'kubeconfig');
  await writeFile(kubeconfigPath, proxyKubeconfigText(url, token), { mode: 0o600, flag: 'wx' });
  return { folder, kubeconfigPath };
}
