import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from './request-info.js';

const pick = (method: string, url: string) => {
  const info = parseRequestInfo(method, url);
  return [info.verb, info.apiGroup, info.resource, info.subresource, info.namespace, info.name, info.isResourceRequest, info.dryRun];
};

describe('request-info parsing (the API server rules)', () => {
  it.each([
    ['GET', '/api/v1/pods', ['list', '', 'pods', '', '', '', true, false]],
    ['GET', '/api/v1/pods?watch=true', ['watch', '', 'pods', '', '', '', true, false]],
    ['GET', '/api/v1/watch/namespaces/a/pods', ['watch', '', 'pods', '', 'a', '', true, false]],
    ['GET', '/api/v1/namespaces/a/pods/p', ['get', '', 'pods', '', 'a', 'p', true, false]],
    ['GET', '/api/v1/namespaces/a/pods/p/log?follow=true', ['get', '', 'pods', 'log', 'a', 'p', true, false]],
    ['POST', '/api/v1/namespaces/a/pods/p/exec?command=sh', ['create', '', 'pods', 'exec', 'a', 'p', true, false]],
    ['GET', '/api/v1/namespaces/a/pods/p/exec?command=sh', ['get', '', 'pods', 'exec', 'a', 'p', true, false]],
    ['POST', '/api/v1/namespaces/a/pods/p/portforward', ['create', '', 'pods', 'portforward', 'a', 'p', true, false]],
    ['GET', '/api/v1/namespaces/a/services/s/proxy/x/y', ['get', '', 'services', 'proxy', 'a', 's', true, false]],
    ['POST', '/apis/apps/v1/namespaces/a/deployments?dryRun=All', ['create', 'apps', 'deployments', '', 'a', '', true, true]],
    ['PATCH', '/apis/apps/v1/namespaces/a/deployments/d/scale', ['patch', 'apps', 'deployments', 'scale', 'a', 'd', true, false]],
    ['DELETE', '/api/v1/namespaces/a/configmaps', ['deletecollection', '', 'configmaps', '', 'a', '', true, false]],
    ['DELETE', '/api/v1/namespaces/prod', ['delete', '', 'namespaces', '', 'prod', 'prod', true, false]],
    ['PUT', '/api/v1/namespaces/prod/finalize', ['update', '', 'namespaces', 'finalize', 'prod', 'prod', true, false]],
    ['GET', '/api/v1/namespaces', ['list', '', 'namespaces', '', '', '', true, false]],
    [
      'GET',
      '/apis/pilothouse.dev/v1alpha1/namespaces/ph/accessrequests/r/status',
      ['get', 'pilothouse.dev', 'accessrequests', 'status', 'ph', 'r', true, false],
    ],
    ['POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', ['create', 'authorization.k8s.io', 'selfsubjectaccessreviews', '', '', '', true, false]],
    ['GET', 'https://host:6443/api/v1/nodes/n1', ['get', '', 'nodes', '', '', 'n1', true, false]],
    ['DELETE', '/api/v1/namespaces/a/pods/p?dryRun=None&dryRun=All', ['delete', '', 'pods', '', 'a', 'p', true, true]],
  ])('%s %s', (method, url, expected) => {
    expect(pick(method, url)).toEqual(expected);
  });

  it('treats discovery, version and OpenAPI as non-resource requests', () => {
    for (const path of ['/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1', '/version', '/openapi/v3', '/healthz']) {
      const info = parseRequestInfo('GET', path);
      expect(info.isResourceRequest, path).toBe(false);
      expect(info.verb).toBe('get');
      expect(info.path).toBe(path);
    }
  });

  it('decodes the path before splitting it, like the API server (an escaped slash separates)', () => {
    expect(pick('GET', '/api/v1/namespaces/prod/secrets%2Fdb')).toEqual(['get', '', 'secrets', '', 'prod', 'db', true, false]);
    expect(pick('GET', '/api/v1/namespaces/%6b%75%62%65-system/secrets')).toEqual(['list', '', 'secrets', '', 'kube-system', '', true, false]);
  });

  it.each([
    ['/apis//v1/namespaces/a/pods', 'empty segment'],
    ['/api/v1/namespaces//pods', 'empty segment'],
    ['/api/v1/namespaces/a/pods/', 'empty segment'],
    ['/api/v1/namespaces/a/pods/../secrets', '. or .. segment'],
    ['/api/v1/namespaces/a/./pods', '. or .. segment'],
    ['/api/v1/namespaces/a/pods/%2e%2e/secrets', '. or .. segment'],
    ['/api/v1/namespaces/a/secrets%2F%2Fdb', 'empty segment'],
    ['/version/..', '. or .. segment'],
    ['https://host:6443/apis//v1/x', 'empty segment'],
  ])('marks %s invalid (%s) and parses it as written, never resolved', (url, why) => {
    const info = parseRequestInfo('GET', url);
    expect(info.invalid).toContain(why);
  });

  it('keeps well-formed paths valid, the root and absolute URLs included', () => {
    for (const url of ['/', '/api/v1/pods', 'https://host:6443/api/v1/nodes/n1?watch=1', '/apis/apps/v1/namespaces/a/deployments/d.v1'])
      expect(parseRequestInfo('GET', url).invalid, url).toBeUndefined();
    expect(parseRequestInfo('GET', '/api/v1/namespaces/a/pods/../secrets')).toMatchObject({ path: '/api/v1/namespaces/a/pods/../secrets' });
  });
});
