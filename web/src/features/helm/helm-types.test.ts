import { describe, expect, it } from 'vitest';
import { chartNameOf, releasePath, statusTone } from './helm-types';

describe('helm helpers', () => {
  it('strips the version from a chart and links a release', () => {
    expect(chartNameOf('nginx-ingress-4.10.1')).toBe('nginx-ingress');
    expect(chartNameOf('demo-0.1.0-rc.1')).toBe('demo');
    expect(chartNameOf('plain')).toBe('plain');
    expect(releasePath({ namespace: 'shop', name: 'web' })).toBe('/helm/releases/shop/web');
    expect(statusTone('failed')).toBe('tone-bad');
    expect(statusTone('pending-upgrade')).toBe('tone-warn');
  });
});
