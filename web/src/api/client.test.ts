import { describe, expect, it } from 'vitest';
import { ApiClient, csrfHeader, type SessionChannel } from './client';
import { ApiError, withQuery } from '@pilothouse/wire/wire-client';

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

const me = { username: 'alice', role: 'admin', roles: [], expires_at: '2030-01-01T00:00:00.000Z', session_ends_at: '2030-01-02T00:00:00.000Z' };

/** A BroadcastChannel pair as two tabs of one browser see it. */
function channelPair(): [SessionChannel, SessionChannel] {
  const left: SessionChannel = { onmessage: null, postMessage: (data) => right.onmessage?.({ data } as MessageEvent) };
  const right: SessionChannel = { onmessage: null, postMessage: (data) => left.onmessage?.({ data } as MessageEvent) };
  return [left, right];
}

describe('ApiClient', () => {
  it('logs in, learns the session from /api/auth/me, keeps no token and sends the CSRF header', async () => {
    const { fetch, calls } = fakeFetch([json(session), json(me), json({ items: [], total: 0 })]);
    const client = new ApiClient({ fetch });
    await client.login('alice', 'secret');
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ username: 'alice', password: 'secret' });
    expect(calls[1]?.url).toBe('/api/auth/me');
    expect(client.current).toMatchObject({ username: 'alice', role: 'admin', session_ends_at: me.session_ends_at });
    expect(client.current).not.toHaveProperty('token');
    await client.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' }, query: { namespace: 'demo', labelSelector: '' } });
    expect(calls[2]?.url).toBe('/api/k8s/pods?namespace=demo');
    expect(header(calls[2], 'Authorization')).toBeUndefined();
    expect(header(calls[2], csrfHeader)).toBe('1');
  });

  it('restores the session of the browser (cookie) in a new tab, and none when the service says 401', async () => {
    const signedIn = new ApiClient({ fetch: fakeFetch([json(me)]).fetch });
    expect(await signedIn.restore()).toMatchObject({ username: 'alice' });
    const signedOut = new ApiClient({ fetch: fakeFetch([json({ error: 'authentication required', code: 'UNAUTHORIZED' }, 401)]).fetch });
    expect(await signedOut.restore()).toBeNull();
    expect(signedOut.restoring).toBe(false);
  });

  it('follows the expiry of a token the service refreshed in the cookie', async () => {
    const refreshed = { 'X-Token-Expires-At': '2031-01-01T00:00:00.000Z' };
    const { fetch } = fakeFetch([json(me), json({}, 200, refreshed)]);
    const client = new ApiClient({ fetch });
    await client.restore();
    await client.call('GET', '/api/health');
    expect(client.current?.expires_at).toBe('2031-01-01T00:00:00.000Z');
  });

  it('throws the contract error body and ends the session on 401 with the reason the service gave', async () => {
    const { fetch } = fakeFetch([
      json(me),
      json({ error: 'needs approval', code: 'FORBIDDEN', details: { reason: 'approval_required' } }, 403),
      json({ error: 'session ended', code: 'UNAUTHORIZED', details: { reason: 'revoked' } }, 401),
    ]);
    const client = new ApiClient({ fetch });
    await client.restore();
    const ended: (string | undefined)[] = [];
    client.subscribe((next, why) => ended.push(next ? 'session' : why));
    const forbidden = await client.call('DELETE', '/api/k8s/{resource}/{name}', { path: { resource: 'pods', name: 'x' } }).catch((error: unknown) => error);
    expect(forbidden).toBeInstanceOf(ApiError);
    expect((forbidden as ApiError).approvalRequired).toBe(true);
    expect(client.current).not.toBeNull();
    const revoked = await client.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' } }).catch((error: unknown) => error);
    expect((revoked as ApiError).code).toBe('UNAUTHORIZED');
    expect(client.current).toBeNull();
    expect(ended).toEqual(['revoked']);
  });

  it('follows a role an admin changed (X-Pilothouse-Role) and says from which', async () => {
    const client = new ApiClient({ fetch: fakeFetch([json(me), json({}, 200, { 'X-Pilothouse-Role': 'viewer' })]).fetch });
    await client.restore();
    await client.call('GET', '/api/health');
    expect(client.view).toMatchObject({ session: { role: 'viewer' }, roleChangedFrom: 'admin' });
    client.dismissRoleChange();
    expect(client.view.roleChangedFrom).toBeUndefined();
  });

  it('ends the session in every tab at a logout in one', async () => {
    const [first, second] = channelPair();
    const one = new ApiClient({ fetch: fakeFetch([json(me), json({ loggedOut: true })]).fetch, channel: first });
    const other = new ApiClient({ fetch: fakeFetch([json(me)]).fetch, channel: second });
    await one.restore();
    await other.restore();
    const ended: (string | undefined)[] = [];
    other.subscribe((next, why) => ended.push(next ? 'session' : why));
    await one.logout();
    expect(other.current).toBeNull();
    expect(ended).toEqual(['logout']);
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
    const client = new ApiClient({ fetch });
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
    const { fetch, calls } = fakeFetch([json(me), json({ items: [] }), json({}), json({}), json({}), json({ error: 'gone', code: 'UNAUTHORIZED' }, 401)]);
    const home = new ApiClient({ fetch });
    await home.restore();
    const staging = home.forCluster('staging');
    expect(staging.cluster).toBe('staging');
    expect(home.cluster).toBeUndefined();
    expect(home.forCluster('').cluster).toBeUndefined();

    await staging.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' }, query: { namespace: 'web' } });
    expect(calls[1]?.url).toBe('/api/k8s/pods?namespace=web&cluster=staging');
    expect(staging.current?.username).toBe('alice');
    await home.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' } });
    expect(calls[2]?.url).toBe('/api/k8s/pods');
    // A request that names its own cluster keeps it (the all-clusters overview asks each cluster).
    await staging.call('GET', '/api/k8s/{resource}', { path: { resource: 'nodes' }, query: { cluster: 'prod' } });
    expect(calls[3]?.url).toBe('/api/k8s/nodes?cluster=prod');
    await staging.call('POST', '/api/pods/{name}/terminal/ticket', { path: { name: 'web' }, body: {} });
    expect(calls[4]?.url).toBe('/api/pods/web/terminal/ticket?cluster=staging');

    // A 401 on the staging view ends the one session: the home view is signed out too.
    const ended: (string | undefined)[] = [];
    home.subscribe((_session, why) => ended.push(why));
    await expect(staging.call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' } })).rejects.toMatchObject({ status: 401 });
    expect(home.current).toBeNull();
    expect(ended).toEqual(['ended']);
  });
});

describe('withQuery', () => {
  it('leaves out empty values and appends to an existing query', () => {
    expect(withQuery('/a', { x: 1, y: undefined, z: null, w: '' })).toBe('/a?x=1');
    expect(withQuery('/a?b=1', { c: true })).toBe('/a?b=1&c=true');
    expect(withQuery('/a')).toBe('/a');
  });
});
