import * as yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { maskManifestSecrets } from './releases.js';

const manifest = `---
# Source: demo/templates/secret.yaml
apiVersion: v1
kind: Secret
metadata:
  name: demo-credentials
stringData:
  password: hunter2
data:
  token: c2VjcmV0
---
# Source: demo/templates/configmap.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: demo-settings
data:
  greeting: hello
`;

describe('helm manifest for viewers', () => {
  it('masks every Secret value and leaves other documents as rendered', () => {
    const masked = maskManifestSecrets(manifest);
    expect(masked).not.toMatch(/hunter2|c2VjcmV0/);
    expect(masked).toContain('# Source: demo/templates/secret.yaml');
    expect(masked).toContain('# Source: demo/templates/configmap.yaml\napiVersion: v1\nkind: ConfigMap');
    const documents = yaml.loadAll(masked).filter(Boolean) as { kind: string; data: Record<string, string>; stringData?: Record<string, string> }[];
    expect(documents.map((document) => document.kind)).toEqual(['Secret', 'ConfigMap']);
    expect(documents[0]).toMatchObject({ data: { token: '******' }, stringData: { password: '******' } });
    expect(documents[1]?.data).toEqual({ greeting: 'hello' });
  });

  it('returns a manifest without Secrets unchanged', () => {
    const plain = manifest.split('---').slice(2).join('---');
    expect(maskManifestSecrets(`---${plain}`)).toBe(`---${plain}`);
  });
});

describe('helm environment', () => {
  it('passes paths and proxies but never the service secrets', async () => {
    const { helmEnvironment } = await import('./helm-runner.js');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const saved = { ...process.env };
    process.env.JWT_SECRET = 'do-not-pass';
    process.env.OPENAI_API_KEY = 'sk-do-not-pass';
    process.env.HTTPS_PROXY = 'http://proxy.internal:3128';
    process.env.HELM_NAMESPACE = 'elsewhere';
    try {
      const environment = helmEnvironment(mkdtempSync(`${tmpdir()}/ph-helm-env-`));
      expect(environment.JWT_SECRET).toBeUndefined();
      expect(environment.OPENAI_API_KEY).toBeUndefined();
      expect(environment.HELM_NAMESPACE).toBeUndefined();
      expect(environment.HTTPS_PROXY).toBe('http://proxy.internal:3128');
      expect(environment.PATH).toBe(process.env.PATH);
      expect(environment.HELM_DATA_HOME).toMatch(/ph-helm-env-.*\/data$/);
    } finally {
      process.env = saved;
    }
  });
});
