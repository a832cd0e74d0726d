import { describe, expect, it } from 'vitest';
import { openRuleFindings, type NetworkPolicy } from './network-rules.js';
import { selects } from '../context/label-selectors.js';

const policy = (spec: NetworkPolicy['spec']): NetworkPolicy => ({ metadata: { name: 'p', namespace: 'shop' }, spec });

describe('network policies', () => {
  it('selects pods by labels and expressions; an empty selector selects every pod', () => {
    expect(selects({}, { app: 'web' })).toBe(true);
    expect(selects({ matchLabels: { app: 'web' } }, { app: 'web', tier: 'front' })).toBe(true);
    expect(selects({ matchLabels: { app: 'web' } }, { app: 'api' })).toBe(false);
    expect(selects({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] }, { tier: 'front' })).toBe(true);
    expect(selects({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }, {})).toBe(true);
    expect(selects({ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, {})).toBe(false);
    expect(selects({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, undefined)).toBe(true);
  });

  it('finds rules that allow all ingress or egress, and leaves narrow ones alone', () => {
    const rules = (spec: NetworkPolicy['spec']) => openRuleFindings(policy(spec)).map((finding) => `${finding.rule}:${finding.severity}`);
    expect(rules({ ingress: [{}] })).toEqual(['network.allow-all-ingress:medium']);
    expect(rules({ ingress: [{ from: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [{ port: 443 }] }] })).toEqual(['network.allow-all-ingress:low']);
    expect(rules({ ingress: [{ from: [{ namespaceSelector: {} }] }] })).toEqual(['network.allow-all-ingress:low']);
    expect(rules({ ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } } }] }] })).toEqual([]);
    expect(rules({ ingress: [{ from: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['169.254.169.254/32'] } }] }] })).toEqual([]);
    expect(rules({ egress: [{}] })).toEqual(['network.allow-all-egress:low']);
    expect(rules({ egress: [{ ports: [{ port: 53 }] }] })).toEqual([]);
  });
});
