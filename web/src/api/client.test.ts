import { describe, expect, it } from 'vitest';
import { ApiClient } from './client';
import { ApiError, withQuery } from '@pilothouse/wire/wire-client';

class MemoryStorage {
  readonly values = new Map<string, string>();
  getItem(key: string): string | null {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.values.set(key, value);
  }
  removeItem(key: string): void {
    this.values.delete(key);
  }
}

interface Call {
  url: string;
  init: RequestInit | undefined;
}

/** A fetch that answers from a queue and records the calls. */
function fakeFetch(responses: Response[]): { fetch: (url: string, init?: RequestInit) => Promise<Response>; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      const next = responses.shift();
      if (!next) throw new Error('no more responses');
      return next;
    },
  };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const session = { token: 't1', expires_at: '2030-01-01T00:00:00.000Z', username: 'alice', role: 'admin' };

function header(call: Call | undefined, name: string): string | undefined {
  return (call?.init?.headers as Record<string, string> | undefined)?.[name];
}

describe('ApiClient', () => {
  it('logs in, keeps the session in storage and sends the bearer token', async () => {
    const storage = new MemoryStorage();
    const { fetch, calls } = fakeFetch([json(session), json({ items: [], total: 0 })]);
    const client = new ApiClient({ fetch, storage });
    await client.login('alice', 'secret');
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ username: 'alice', password: 'secret' });
    expect(JSON.parse(storage.getItem('pilothouse.session') ?? '{}').token).toBe('t1');
    await client.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' }, query: { namespace: 'demo', labelSelector: '' } });
    expect(calls[1]?.url).toBe('/api/k8s/pods?namespace=demo');
    expect(header(calls[1], 'Authorization')).toBe('Bearer t1');
    expect(new ApiClient({ fetch, storage }).current?.username).toBe('alice');
  });

  it('replaces the token when a response carries X-Refreshed-Token', async () => {
    const storage = new MemoryStorage();
    storage.setItem('pilothouse.session', JSON.stringify(session));
    const refreshed = { 'X-Refreshed-Token': 't2', 'X-Token-Expires-At': '2031-01-01T00:00:00.000Z' };
    const { fetch, calls } = fakeFetch([json({}, 200, refreshed), json({})]);
    const client = new ApiClient({ fetch, storage });
    const seen: (string | undefined)[] = [];
    client.subscribe((next) => seen.push(next?.token));
    await client.call('GET', '/api/health');
    await client.call('GET', '/api/health');
    expect(header(calls[1], 'Authorization')).toBe('Bearer t2');
    expect(client.current?.expires_at).toBe('2031-01-01T00:00:00.000Z');
    expect(seen).toEqual(['t2']);
  });

  it('throws the contract error body and ends the session on 401', async () => {
    const storage = new MemoryStorage();
    storage.setItem('pilothouse.session', JSON.stringify(session));
    const { fetch } = fakeFetch([
      json({ error: 'needs approval', code: 'FORBIDDEN', details: { reason: 'approval_required' } }, 403),
      json({ error: 'token expired', code: 'UNAUTHORIZED' }, 401),
    ]);
    const client = new ApiClient({ fetch, storage });
    const ended: (string | undefined)[] = [];
    client.subscribe((next, why) => ended.push(next ? 'session' : why));
    const forbidden = await client.call('DELETE', '/api/k8s/{resource}/{name}', { path: { resource: 'pods', name: 'x' } }).catch((error: unknown) => error);
    expect(forbidden).toBeInstanceOf(ApiError);
    expect((forbidden as ApiError).approvalRequired).toBe(true);
    expect(client.current).not.toBeNull();
    const expired = await client.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' } }).catch((error: unknown) => error);
    expect((expired as ApiError).code).toBe('UNAUTHORIZED');
    expect(client.current).toBeNull();
    expect(storage.getItem('pilothouse.session')).toBeNull();
    expect(ended).toEqual(['expired']);
  });

  it('fills the path template with URL-encoded parameters', async () => {
    const { fetch, calls } = fakeFetch([json({}), json({})]);
    const client = new ApiClient({ fetch });
    await client.call('GET', '/api/k8s/{resource}/{name}', { path: { resource: 'pods', name: 'a b/c' }, query: { namespace: 'x' } });
    expect(calls[0]?.url).toBe('/api/k8s/pods/a%20b%2Fc?namespace=x');
    await client.call('DELETE', '/api/access-requests/{id}', { path: { id: 'r-1' } });
    expect(calls[1]?.url).toBe('/api/access-requests/r-1');
    expect(calls[1]?.init?.method).toBe('DELETE');
  });

  it('keeps no session when the login is refused', async () => {
    const { fetch } = fakeFetch([json({ error: 'invalid credentials', code: 'UNAUTHORIZED' }, 401)]);
    const client = new ApiClient({ fetch, storage: new MemoryStorage() });
    await expect(client.login('', 'wrong')).rejects.toMatchObject({ status: 401, message: 'invalid credentials' });
    expect(client.current).toBeNull();
  });

  it('turns a non-JSON error body and a network failure into ApiErrors', async () => {
    const client = new ApiClient({
      fetch: fakeFetch([new Response('Bad Gateway', { status: 502 })]).fetch,
    });
    await expect(client.text('/api/k8s/pods/x/yaml')).rejects.toMatchObject({ status: 502, code: 'HTTP_502', message: 'Bad Gateway' });
    const offline = new ApiClient({ fetch: async () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(offline.call('GET', '/api/health')).rejects.toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('binds a view to one cluster: every request names it, the session stays shared', async () => {
    const storage = new MemoryStorage();
    storage.setItem('pilothouse.session', JSON.stringify(session));
    const refreshed = json({ items: [] }, 200, { 'X-Refreshed-Token': 't2' });
    const { fetch, calls } = fakeFetch([refreshed, json({}), json({}), json({}), json({ error: 'gone', code: 'UNAUTHORIZED' }, 401)]);
    const home = new ApiClient({ fetch, storage });
    const staging = home.forCluster('staging');
    expect(staging.cluster).toBe('staging');
    expect(home.cluster).toBeUndefined();
    expect(home.forCluster('').cluster).toBeUndefined();

    await staging.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' }, query: { namespace: 'web' } });
    expect(calls[0]?.url).toBe('/api/k8s/pods?namespace=web&cluster=staging');
    // The token the service refreshed on the staging view is the one the home view sends next.
    expect(home.current?.token).toBe('t2');
    await home.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' } });
    expect(calls[1]?.url).toBe('/api/k8s/pods');
    expect(header(calls[1], 'Authorization')).toBe('Bearer t2');
    // A request that names its own cluster keeps it (the all-clusters overview asks each cluster).
    await staging.call('GET', '/api/k8s/{resource}', { path: { resource: 'nodes' }, query: { cluster: 'prod' } });
    expect(calls[2]?.url).toBe('/api/k8s/nodes?cluster=prod');
    await staging.call('POST', '/api/pods/{name}/terminal/ticket', { path: { name: 'web' }, body: {} });
    expect(calls[3]?.url).toBe('/api/pods/web/terminal/ticket?cluster=staging');

    // A 401 on the staging view ends the one session: the home view is signed out too.
    const ended: (string | undefined)[] = [];
    home.subscribe((_session, why) => ended.push(why));
    await expect(staging.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' } })).rejects.toMatchObject({ status: 401 });
    expect(home.current).toBeNull();
    expect(ended).toEqual(['expired']);
  });
});

describe('withQuery', () => {
  it('leaves out empty values and appends to an existing query', () => {
    expect(withQuery('/a', { x: 1, y: undefined, z: null, w: '' })).toBe('/a?x=1');
    expect(withQuery('/a?b=1', { c: true })).toBe('/a?b=1&c=true');
    expect(withQuery('/a')).toBe('/a');
  });
});
