import { describe, expect, it } from 'vitest';

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
