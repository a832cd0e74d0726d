import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from '../../rbac/request-info.js';
import { secretVisibility } from '../../rbac/secret-visibility.js';
import { maskDocument, maskedRequestHeaders, secretMaskFor } from './secret-responses.js';

const viewer = secretVisibility({ username: 'v', role: 'viewer', roles: [] });
const user = secretVisibility({ username: 'u', role: 'user', roles: [] });
const admin = secretVisibility({ username: 'a', role: 'admin', roles: [] });
const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';
const secret = { metadata: { name: 'db', annotations: { [lastApplied]: '{"stringData":{"p":"hunter2"}}', keep: 'x' } }, data: { p: 'aHVudGVyMg==' } };

describe('secret answers of the policy proxy', () => {
  it('masks Secrets and MCPServers (not other kinds) unless the caller sees everything', () => {
    expect(secretMaskFor(parseRequestInfo('GET', '/api/v1/namespaces/a/secrets/db'), viewer)).toMatchObject({ kind: 'Secret', watch: false });
    expect(secretMaskFor(parseRequestInfo('GET', '/api/v1/secrets?watch=true'), user)).toMatchObject({ kind: 'Secret', watch: true });
    expect(secretMaskFor(parseRequestInfo('GET', '/apis/pilothouse.dev/v1alpha1/namespaces/p/mcpservers'), viewer)).toMatchObject({ kind: 'MCPServer' });
    expect(secretMaskFor(parseRequestInfo('GET', '/api/v1/namespaces/a/secrets/db'), admin)).toBeUndefined();
    expect(secretMaskFor(parseRequestInfo('GET', '/apis/pilothouse.dev/v1alpha1/mcpservers?watch=true'), user)).toMatchObject({
      kind: 'MCPServer',
      watch: true,
    });
    expect(secretMaskFor(parseRequestInfo('GET', '/api/v1/namespaces/a/configmaps/db'), viewer)).toBeUndefined();
  });

  it('masks objects, list items, table rows and watch events as the HTTP API does', () => {
    const mask = { kind: 'Secret' as const, visibility: viewer, watch: false };
    expect(maskDocument({ kind: 'Secret', apiVersion: 'v1', ...secret }, mask)).toEqual({
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 'db', annotations: { keep: 'x' } },
      data: { p: '******' },
    });
    const list = maskDocument({ kind: 'SecretList', items: [secret] }, mask) as { items: { data: unknown; kind?: string }[] };
    expect(list.items[0]).toMatchObject({ data: { p: '******' } });
    expect(list.items[0]?.kind).toBeUndefined();
    const table = maskDocument({ kind: 'Table', rows: [{ cells: ['db'], object: { kind: 'PartialObjectMetadata', ...secret } }] }, mask);
    expect(JSON.stringify(table)).not.toContain('hunter2');
    const event = maskDocument({ type: 'ADDED', object: { kind: 'Secret', apiVersion: 'v1', ...secret } }, mask);
    expect(JSON.stringify(event)).not.toMatch(/hunter2|aHVudGVyMg/);
    const forUser = maskDocument({ kind: 'Secret', apiVersion: 'v1', ...secret }, { ...mask, visibility: user });
    expect(forUser).toMatchObject({ data: { p: 'aHVudGVyMg==' }, metadata: { annotations: { keep: 'x' } } });
    expect(JSON.stringify(forUser)).not.toContain('hunter2');
    const server = { metadata: { name: 'm' }, spec: { command: 'npx', env: { API_TOKEN: 'tok' } } };
    const serverMask = { kind: 'MCPServer' as const, visibility: user, watch: false };
    expect(maskDocument({ kind: 'MCPServerList', items: [server] }, serverMask)).toMatchObject({ items: [{ spec: { env: { API_TOKEN: '******' } } }] });
  });

  it('asks for JSON only, uncompressed', () => {
    expect(maskedRequestHeaders({ accept: 'application/vnd.kubernetes.protobuf, */*', 'accept-encoding': 'gzip' })).toEqual({ accept: 'application/json' });
    expect(maskedRequestHeaders({ accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' }).accept).toMatch(/as=Table/);
  });
});
