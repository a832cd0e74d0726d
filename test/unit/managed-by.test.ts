import { describe, expect, it } from 'vitest';
import { managedBy, managedByText } from '@pilothouse/wire/managed-by';

describe('managedBy (the GitOps marks on an object)', () => {
  it('reads Argo CD annotation tracking, with an Application in another namespace, and label tracking', () => {
    const tracked = managedBy({
      labels: { 'app.kubernetes.io/instance': 'shop' },
      annotations: { 'argocd.argoproj.io/tracking-id': 'shop:apps/Deployment:shop/web' },
    });
    expect(tracked).toEqual({ controller: 'Argo CD', kind: 'Application', name: 'shop' });
    expect(managedBy({ annotations: { 'argocd.argoproj.io/tracking-id': 'team-a_shop:apps/Deployment:shop/web' } })).toMatchObject({
      namespace: 'team-a',
      name: 'shop',
    });
    expect(managedBy({ labels: { 'argocd.argoproj.io/instance': 'payments' } })).toEqual({ controller: 'Argo CD', kind: 'Application', name: 'payments' });
    expect(managedByText(tracked!)).toBe('Argo CD Application shop');
  });

  it('reads Flux Kustomization and HelmRelease labels, honours reconcile: disabled, and ignores a bare Helm instance label', () => {
    const kustomized = managedBy({ labels: { 'kustomize.toolkit.fluxcd.io/name': 'apps', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' } });
    expect(managedByText(kustomized!)).toBe('Flux Kustomization apps (flux-system)');
    expect(managedBy({ labels: { 'helm.toolkit.fluxcd.io/name': 'redis', 'helm.toolkit.fluxcd.io/namespace': 'cache' } })).toMatchObject({
      kind: 'HelmRelease',
      name: 'redis',
    });
    const optedOut = {
      labels: { 'kustomize.toolkit.fluxcd.io/name': 'apps', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' },
      annotations: { 'kustomize.toolkit.fluxcd.io/reconcile': 'disabled' },
    };
    expect(managedBy(optedOut)).toBeUndefined();
    expect(managedBy({ labels: { 'app.kubernetes.io/instance': 'redis', 'kustomize.toolkit.fluxcd.io/name': 'apps' } })).toBeUndefined();
    expect(managedBy(undefined)).toBeUndefined();
  });
});
