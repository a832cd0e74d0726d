import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../store/database.js';
import { scrubText } from '../redact.js';
import { AuditLog, scrub } from './audit-log.js';

let directory: string | undefined;
let database: Db | undefined;

function auditLog(): AuditLog {
  directory = mkdtempSync(path.join(tmpdir(), 'pilothouse-audit-'));
  database = openDatabase(directory);
  return new AuditLog(database);
}

afterEach(() => {
  database?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
  database = undefined;
  directory = undefined;
});

describe('audit scrub', () => {
  it('redacts secret keys at every depth, inside objects and arrays', () => {
    const scrubbed = scrub({
      body: { password: 'hunter2', nested: { api_key: 'sk-1', Authorization: 'Bearer abc', keep: 'visible' } },
      servers: [{ name: 'x', env: { GITHUB_TOKEN: 'ghp_1' } }],
      ldap: { bind_password: 'pw' },
      count: 3,
    });
    expect(scrubbed).toEqual({
      body: { password: '[redacted]', nested: { api_key: '[redacted]', Authorization: '[redacted]', keep: 'visible' } },
      servers: [{ name: 'x', env: { GITHUB_TOKEN: '[redacted]' } }],
      ldap: { bind_password: '[redacted]' },
      count: 3,
    });
    expect(JSON.stringify(scrubbed)).not.toMatch(/hunter2|sk-1|abc|ghp_1|"pw"/);
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
    const log = auditLog();
    const entry = log.record({
      user: 'alice',
      action: 'execute',
      resource: 'secret/db',
      details: { command: 'kubectl create secret generic db --from-literal=token=t0ps3cret', request: { body: { password: 'hunter2' } } },
      decision: 'allow',
      outcome: 'error: bad value password=hunter2',
    });
    const stored = log.query({ limit: 10, offset: 0 }).items[0];
    for (const result of [entry, stored]) {
      expect(JSON.stringify(result)).not.toMatch(/hunter2|t0ps3cret/);
      expect(result?.details).toEqual({
        command: 'kubectl create secret generic db --from-literal=token=[redacted]',
        request: { body: { password: '[redacted]' } },
      });
    }
  });
});
