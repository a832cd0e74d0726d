import type { Finding, FindingObject, Severity } from '../document/document.js';
import type { Metadata } from '../context/kube-shapes.js';
import type { RawObject } from '../context/requester-reader.js';
import { isEmptySelector, type SelectorSpec } from '../context/label-selectors.js';

interface Peer {
  podSelector?: SelectorSpec;
  namespaceSelector?: SelectorSpec;
  ipBlock?: { cidr?: string; except?: string[] };
}

interface PolicyRule {
  from?: Peer[];
  to?: Peer[];
  ports?: unknown[];
}

export interface NetworkPolicy extends RawObject {
  metadata?: Metadata;
  spec?: { podSelector?: SelectorSpec; policyTypes?: string[]; ingress?: PolicyRule[]; egress?: PolicyRule[] };
}

type Direction = 'ingress' | 'egress';

const everyAddress = new Set(['0.0.0.0/0', '::/0']);

/** How open a peer list is: `anywhere` (no peers, or every address), `cluster` (every pod of every namespace), or narrower. */
function openness(peers: Peer[] | undefined): 'anywhere' | 'cluster' | undefined {
  if (!peers || peers.length === 0) return 'anywhere';
  if (peers.some((peer) => peer.ipBlock && everyAddress.has(peer.ipBlock.cidr ?? '') && (peer.ipBlock.except ?? []).length === 0)) return 'anywhere';
  const everyPod = (peer: Peer): boolean =>
    peer.namespaceSelector !== undefined && isEmptySelector(peer.namespaceSelector) && isEmptySelector(peer.podSelector);
  return peers.some(everyPod) ? 'cluster' : undefined;
}

const peerWords: Record<Direction, Record<'anywhere' | 'cluster', string>> = {
  ingress: { anywhere: 'from anywhere', cluster: 'from every pod of the cluster' },
  egress: { anywhere: 'to anywhere', cluster: 'to every pod of the cluster' },
};

const reasons: Record<Direction, { why: string; fix: string }> = {
  ingress: {
    why: 'A rule open to every source undoes the isolation the policy gives the selected pods.',
    fix: 'Name the peers (pod and namespace selectors, narrow ipBlocks) and ports the selected pods really serve.',
  },
  egress: {
    why: 'Unrestricted egress lets a compromised pod reach any address, including the cloud metadata service and the internet.',
    fix: 'Name the peers (pod and namespace selectors, narrow ipBlocks) and ports the selected pods really call.',
  },
};

/** Ingress open to anywhere on every port is medium; the rest low; egress limited to ports is not reported. */
function severityOf(direction: Direction, open: 'anywhere' | 'cluster', allPorts: boolean): Severity | undefined {
  if (direction === 'egress') return allPorts ? 'low' : undefined;
  return open === 'anywhere' && allPorts ? 'medium' : 'low';
}

function policyObject(policy: NetworkPolicy): FindingObject {
  return { kind: 'NetworkPolicy', name: policy.metadata?.name ?? '', namespace: policy.metadata?.namespace };
}

function ruleFinding(policy: NetworkPolicy, direction: Direction, rule: PolicyRule): Finding | undefined {
  const open = openness(direction === 'ingress' ? rule.from : rule.to);
  const allPorts = (rule.ports ?? []).length === 0;
  const severity = open ? severityOf(direction, open, allPorts) : undefined;
  if (!open || !severity) return undefined;
  const object = policyObject(policy);
  const ports = allPorts ? 'on every port' : 'on the listed ports';
  return {
    rule: `network.allow-all-${direction}`,
    severity,
    title: `NetworkPolicy ${object.namespace ?? ''}/${object.name} allows ${direction} ${peerWords[direction][open]} ${ports}`,
    object,
    ...reasons[direction],
  };
}

/** Rules of a policy that allow all ingress or egress. */
export function openRuleFindings(policy: NetworkPolicy): Finding[] {
  const rules: Array<[Direction, PolicyRule]> = [
    ...(policy.spec?.ingress ?? []).map((rule): [Direction, PolicyRule] => ['ingress', rule]),
    ...(policy.spec?.egress ?? []).map((rule): [Direction, PolicyRule] => ['egress', rule]),
  ];
  return rules.flatMap(([direction, rule]) => ruleFinding(policy, direction, rule) ?? []);
}
