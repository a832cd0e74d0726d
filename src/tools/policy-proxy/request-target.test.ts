import { describe, expect, it } from 'vitest';
import { forwardedRequestHeaders } from './headers.js';
import { carriesToken } from './proxy-token.js';
import { requestTarget } from './request-target.js';

describe('request target', () => {
  it('decides on exactly what it forwards: dot segments resolved, the query re-encoded', () => {
    const target = requestTarget('GET', '/api/v1/namespaces/a/pods/../secrets/db?x=1;dryRun=All');
    expect(target).toMatchObject({ pathname: '/api/v1/namespaces/a/secrets/db', search: '?x=1%3BdryRun%3DAll' });
    expect(target?.attributes).toMatchObject({ verb: 'get', resource: 'secrets', name: 'db', namespace: 'a', dryRun: false });
  });

  it.each([
    'http://evil.example/api/v1/pods',
    '//evil.example/api/v1/pods',
    '/api/v1/namespaces/prod/secrets%2Fdb',
    '/api/v1/namespaces/prod%2fsecrets',
    'api/v1/pods',
    undefined,
  ])('refuses the target %s', (url) => {
    expect(requestTarget('GET', url)).toBeUndefined();
  });

  it('keeps repeated parameters (exec commands) and watch', () => {
    const exec = requestTarget('POST', '/api/v1/namespaces/a/pods/p/exec?command=sh&command=-c&command=echo%20hi&stdout=true');
    expect(exec?.search).toBe('?command=sh&command=-c&command=echo+hi&stdout=true');
    expect(exec?.attributes).toMatchObject({ verb: 'create', resource: 'pods', subresource: 'exec' });
    expect(requestTarget('GET', '/api/v1/namespaces/a/pods?watch=true')?.attributes.verb).toBe('watch');
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
