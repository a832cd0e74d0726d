import { describe, expect, it } from 'vitest';
import { forwardedRequestHeaders } from './headers.js';
import { carriesToken } from './proxy-token.js';
import { isTargetRefusal, requestTarget } from './request-target.js';

describe('request target', () => {
  it('decides on exactly what it forwards: the query re-encoded, the path as written', () => {
    const target = requestTarget('GET', '/api/v1/namespaces/a/secrets/db?x=1;dryRun=All');
    expect(target).toMatchObject({ pathname: '/api/v1/namespaces/a/secrets/db', search: '?x=1%3BdryRun%3DAll' });
    expect(target).toMatchObject({ attributes: { verb: 'get', resource: 'secrets', name: 'db', namespace: 'a', dryRun: false } });
  });

  it.each([
    'http://evil.example/api/v1/pods',
    '//evil.example/api/v1/pods',
    '/api/v1/namespaces/prod/secrets%2Fdb',
    '/api/v1/namespaces/prod%2fsecrets',
    'api/v1/pods',
    undefined,
  ])('refuses the target %s (403)', (url) => {
    expect(requestTarget('GET', url)).toMatchObject({ code: 403 });
  });

  it.each([
    ['/apis//v1/namespaces/a/pods', 'empty segment'],
    ['/api/v1/namespaces//pods', 'empty segment'],
    ['/api/v1/namespaces/a/pods/', 'empty segment'],
    ['/api/v1/namespaces/a/pods/../secrets/db', '. or .. segment'],
    ['/api/v1/namespaces/a/./pods', '. or .. segment'],
    ['/api/v1/namespaces/a/pods/%2e%2e/secrets', '. or .. segment'],
    ['/api/v1/namespaces/a/pods\\..\\secrets', 'not in canonical form'],
    ['/api/v1/namespaces/a/pods/a b', 'not in canonical form'],
  ])('refuses the path %s instead of resolving it (400: %s)', (url, why) => {
    const refused = requestTarget('DELETE', url);
    expect(refused).toMatchObject({ code: 400, message: expect.stringContaining(why) });
    expect(isTargetRefusal(refused)).toBe(true);
  });

  it('keeps repeated parameters (exec commands) and watch', () => {
    const exec = requestTarget('POST', '/api/v1/namespaces/a/pods/p/exec?command=sh&command=-c&command=echo%20hi&stdout=true');
    expect(exec).toMatchObject({ search: '?command=sh&command=-c&command=echo+hi&stdout=true' });
    expect(exec).toMatchObject({ attributes: { verb: 'create', resource: 'pods', subresource: 'exec' } });
    expect(requestTarget('GET', '/api/v1/namespaces/a/pods?watch=true')).toMatchObject({ attributes: { verb: 'watch' } });
  });
});

describe('forwarded headers', () => {
  it('drops the client credentials, impersonation and hop-by-hop headers; adds the service ones', () => {
    const headers = forwardedRequestHeaders(
      {
        authorization: 'Bearer proxy-token',
        'impersonate-user': 'admin',
        'impersonate-group': 'system:masters',
        'impersonate-uid': '1',
        'impersonate-extra-scopes': 'x',
        'x-remote-user': 'admin',
        connection: 'keep-alive, x-private',
        'x-private': 'y',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        host: '127.0.0.1:1',
        accept: 'application/json',
        'content-type': 'application/json',
      },
      { Authorization: 'Bearer service', 'Impersonate-User': 'system:serviceaccount:ph:user' },
      false,
    );
    expect(headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
      Authorization: 'Bearer service',
      'Impersonate-User': 'system:serviceaccount:ph:user',
    });
  });

  it('keeps the upgrade of an upgrade request', () => {
    const headers = forwardedRequestHeaders({ connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-protocol': 'v5.channel.k8s.io' }, {}, true);
    expect(headers).toEqual({ connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-protocol': 'v5.channel.k8s.io' });
  });

  it('checks the bearer token', () => {
    expect(carriesToken({ authorization: 'Bearer abc' }, 'abc')).toBe(true);
    expect(carriesToken({ authorization: 'Bearer abcd' }, 'abc')).toBe(false);
    expect(carriesToken({ authorization: 'Basic abc' }, 'abc')).toBe(false);
    expect(carriesToken({}, 'abc')).toBe(false);
  });
});
