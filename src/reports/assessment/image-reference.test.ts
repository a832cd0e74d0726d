import { describe, expect, it } from 'vitest';
import { isLatest, isTrusted, parseImage } from './image-reference.js';

describe('image references', () => {
  it('takes references apart as runtimes read them', () => {
    expect(parseImage('nginx')).toEqual({ registry: 'docker.io', repository: 'library/nginx', tag: '', digest: '' });
    expect(parseImage('bitnami/redis:7.2')).toEqual({ registry: 'docker.io', repository: 'bitnami/redis', tag: '7.2', digest: '' });
    expect(parseImage('localhost:5000/team/app:1.0@sha256:abc')).toEqual({
      registry: 'localhost:5000',
      repository: 'team/app',
      tag: '1.0',
      digest: 'sha256:abc',
    });
    expect(parseImage('index.docker.io/nginx:latest')).toMatchObject({ registry: 'docker.io', repository: 'library/nginx', tag: 'latest' });
    expect(parseImage('registry.k8s.io/pause@sha256:abc')).toMatchObject({ registry: 'registry.k8s.io', repository: 'pause', tag: '', digest: 'sha256:abc' });
  });

  it('calls untagged and :latest references latest unless a digest pins them', () => {
    expect(isLatest(parseImage('nginx'))).toBe(true);
    expect(isLatest(parseImage('nginx:latest'))).toBe(true);
    expect(isLatest(parseImage('nginx:latest@sha256:abc'))).toBe(false);
    expect(isLatest(parseImage('nginx:1.27'))).toBe(false);
  });

  it('trusts registries and repository prefixes, on path boundaries', () => {
    const trusted = ['registry.k8s.io', 'ghcr.io/acme', 'docker.io/library'];
    expect(isTrusted(parseImage('registry.k8s.io/pause:3.10'), trusted)).toBe(true);
    expect(isTrusted(parseImage('ghcr.io/acme/api:1'), trusted)).toBe(true);
    expect(isTrusted(parseImage('ghcr.io/acme-evil/api:1'), trusted)).toBe(false);
    expect(isTrusted(parseImage('nginx:1.27'), trusted)).toBe(true);
    expect(isTrusted(parseImage('bitnami/redis:7'), trusted)).toBe(false);
    expect(isTrusted(parseImage('nginx'), ['index.docker.io/library/'])).toBe(true);
  });
});
