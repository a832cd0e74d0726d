import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { loopbackCertificate } from './loopback-certificate.js';
import { newProxyToken } from './proxy-token.js';
import { proxyKubeconfigText, writeProxyKubeconfig } from './proxy-kubeconfig.js';

describe('proxy kubeconfig', () => {
  const certificate = loopbackCertificate().cert;

  it('holds the proxy URL, its own certificate and its token, and nothing else to authenticate with', () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(proxyKubeconfigText({ url: 'https://127.0.0.1:41234', certificate, token: 'one-time' }));
    expect(kubeConfig.getCurrentCluster()).toMatchObject({ server: 'https://127.0.0.1:41234', skipTLSVerify: false });
    expect(Buffer.from(kubeConfig.getCurrentCluster()?.caData ?? '', 'base64').toString()).toBe(certificate);
    expect(certificate).not.toContain('PRIVATE KEY');
    const user = kubeConfig.getCurrentUser();
    expect(user).toMatchObject({ token: 'one-time' });
    expect([user?.certData, user?.keyData, user?.certFile, user?.keyFile, user?.exec, user?.authProvider, user?.impersonateUser]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(kubeConfig.getClusters()).toHaveLength(1);
    expect(kubeConfig.getUsers()).toHaveLength(1);
  });

  it('is written 0600 in a fresh private 0700 folder', async () => {
    const token = newProxyToken();
    const endpoint = { url: 'https://127.0.0.1:1', certificate, token };
    const { folder, kubeconfigPath } = writeProxyKubeconfig(endpoint);
    try {
      expect(path.dirname(kubeconfigPath)).toBe(folder);
      expect((await stat(folder)).mode & 0o777).toBe(0o700);
      expect((await stat(kubeconfigPath)).mode & 0o777).toBe(0o600);
      expect(await readFile(kubeconfigPath, 'utf8')).toBe(proxyKubeconfigText(endpoint));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('gets a new random token every time', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => newProxyToken()));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
