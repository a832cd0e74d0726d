import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../store/database.js';
import { redactSecrets, scrubText } from '../redact.js';
import { AuditLog } from './audit-log.js';

let directory: string | undefined;
let database: Db | undefined;

function auditLog(knownSecrets: string[] = []): AuditLog {
  directory = mkdtempSync(path.join(tmpdir(), 'pilothouse-audit-'));
  database = openDatabase(directory);
  return new AuditLog(database, undefined, () => knownSecrets);
}

afterEach(() => {
  database?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
  database = undefined;
  directory = undefined;
});

describe('audit scrub', () => {
  const jwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQifQ.c2lnbmF0dXJlLWJ5dGVz';
  const githubToken = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
  const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx1\n-----END RSA PRIVATE KEY-----';

  it('redacts a secret by its value under an innocuous key, at every depth, inside objects and arrays', () => {
    const scrubbed = redactSecrets({
      note: jwt,
      servers: [{ name: 'x', env: { SETTING: githubToken } }],
      nested: { blob: `key:\n${pem}\n`, aws: 'AKIAIOSFODNN7EXAMPLE', openai: 'sk-proj-abcdefghijklmnopqrstuv' },
      header: `Bearer ${'x'.repeat(12)}`,
      count: 3,
    });
    expect(scrubbed).toEqual({
      note: '[redacted]',
      servers: [{ name: 'x', env: { SETTING: '[redacted]' } }],
      nested: { blob: 'key:\n[redacted]\n', aws: '[redacted]', openai: '[redacted]' },
      header: 'Bearer [redacted]',
      count: 3,
    });
  });

  it("keeps a token fingerprint under its natural name, and redacts the contract's credential fields whole", () => {
    const fingerprint = 'a3f1c2d4e5f60718';
    const scrubbed = redactSecrets({
      tokenFingerprint: fingerprint,
      secretName: 'db-credentials',
      body: { password: 'hunter2', nested: { api_key: 'plain', Authorization: 'anything', keep: 'visible' } },
      ldap: { bind_password: 'pw' },
    });
    expect(scrubbed).toEqual({
      tokenFingerprint: fingerprint,
      secretName: 'db-credentials',
      body: { password: '[redacted]', nested: { api_key: '[redacted]', Authorization: '[redacted]', keep: 'visible' } },
      ldap: { bind_password: '[redacted]' },
    });
  });

  it('redacts the secrets the service knows (the configured LLM key) wherever they appear', () => {
    const key = 'local-model-key-without-prefix-1234';
    expect(redactSecrets({ reply: `upstream said: key ${key} invalid` }, [key])).toEqual({ reply: 'upstream said: key [redacted] invalid' });
  });

  it('masks secret values written inline in command lines', () => {
    expect(scrubText("kubectl create secret generic db --from-literal=password=hunter2 --from-literal=user='al ice' -n a")).toBe(
      'kubectl create secret generic db --from-literal=password=[redacted] --from-literal=user=[redacted] -n a',
    );
    expect(scrubText('helm install x c --set db.password=s3cret --set replicas=2')).toBe('helm install x c --set db.password=[redacted] --set replicas=2');
    expect(scrubText('kubectl get pods --token abc.def')).toBe('kubectl get pods --token [redacted]');
    expect(scrubText('curl -H "Authorization: Bearer eyJhbGc.x.y" http://a')).toBe('curl -H "Authorization: Bearer [redacted]" http://a');
    expect(scrubText('kubectl scale deployment/web --replicas=3 -n shop')).toBe('kubectl scale deployment/web --replicas=3 -n shop');
  });

  it('stores and returns only the scrubbed details and outcome', () => {
    const log = auditLog(['configured-llm-key-0042']);
    const entry = log.record({
      user: 'alice',
      action: 'execute',
      resource: 'secret/db',
      details: { command: 'kubectl create secret generic db --from-literal=token=t0ps3cret', request: { body: { password: 'hunter2' } }, seen: jwt },
      decision: 'allow',
      outcome: 'error: bad value password=hunter2 for configured-llm-key-0042',
    });
    const stored = log.query({ limit: 10, offset: 0 }).items[0];
    for (const result of [entry, stored]) {
      expect(JSON.stringify(result)).not.toMatch(/hunter2|t0ps3cret|eyJ|configured-llm-key/);
      expect(result?.details).toEqual({
        command: 'kubectl create secret generic db --from-literal=token=[redacted]',
        request: { body: { password: '[redacted]' } },
        seen: '[redacted]',
      });
      expect(result?.outcome).toBe('error: bad value password=[redacted] for [redacted]');
    }
  });
});

describe('audit rows per cluster', () => {
  it('stores the cluster a row is about, leaves it out for rows about no cluster, and filters by it', () => {
    const log = auditLog();
    const onProd = log.record({ user: 'ann', action: 'execute', resource: 'deployment/web', decision: 'allow', cluster: 'prod' });
    log.record({ user: 'ann', action: 'execute', resource: 'deployment/web', decision: 'deny', cluster: 'home' });
    const signIn = log.record({ user: 'ann', action: 'login', resource: 'user/ann', decision: 'allow' });
    expect(onProd.cluster).toBe('prod');
    expect(signIn).not.toHaveProperty('cluster');

    const prod = log.query({ limit: 10, offset: 0, cluster: 'prod' });
    expect(prod.total).toBe(1);
    expect(prod.items[0]).toMatchObject({ id: onProd.id, cluster: 'prod', decision: 'allow' });
    expect(log.query({ limit: 10, offset: 0, cluster: 'home', user: 'ann' }).items.map((item) => item.decision)).toEqual(['deny']);
    expect(log.query({ limit: 10, offset: 0, cluster: 'gone' }).total).toBe(0);
    const all = log.query({ limit: 10, offset: 0, user: 'ann' });
    expect(all.total).toBe(3);
    expect(all.items.find((item) => item.action === 'login')).not.toHaveProperty('cluster');
  });
});
