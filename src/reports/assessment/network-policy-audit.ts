import type { Finding } from '../document/document.js';
import type { Pod } from '../context/kube-shapes.js';
import type { ReportContext } from '../context/report-context.js';
import { refs } from '../document/resource-refs.js';
import { count, limitedTableOf, type SectionContent } from '../document/report-sections.js';
import { describeObject, groupByWorkload } from '../context/workload-owner.js';
import { openRuleFindings, type NetworkPolicy } from './network-rules.js';
import { selects } from '../context/label-selectors.js';

interface NamespaceAudit {
  namespace: string;
  pods: Pod[];
  policies: NetworkPolicy[];
  unselected: Pod[];
}

function auditNamespaces(namespaces: string[], pods: Pod[], policies: NetworkPolicy[]): NamespaceAudit[] {
  const audits = new Map(
    namespaces.map((namespace) => [namespace, { namespace, pods: [] as Pod[], policies: [] as NetworkPolicy[], unselected: [] as Pod[] }]),
  );
  for (const policy of policies) audits.get(policy.metadata?.namespace ?? '')?.policies.push(policy);
  for (const pod of pods) audits.get(pod.metadata?.namespace ?? '')?.pods.push(pod);
  for (const audit of audits.values())
    audit.unselected = audit.pods.filter((pod) => !audit.policies.some((policy) => selects(policy.spec?.podSelector, pod.metadata?.labels)));
  return [...audits.values()].sort((left, right) => left.namespace.localeCompare(right.namespace));
}

function namespaceFinding(audit: NamespaceAudit): Finding {
  return {
    rule: 'network.namespace-without-policy',
    severity: 'medium',
    title: `Namespace ${audit.namespace} has no NetworkPolicy (${count(audit.pods.length, 'pod')} open to all traffic)`,
    object: { kind: 'Namespace', name: audit.namespace },
    why: 'Without a NetworkPolicy every pod accepts connections from every pod of the cluster and may connect anywhere (CIS 5.3.2).',
    fix: 'Add a default-deny policy (podSelector: {}, policyTypes: [Ingress, Egress]) and allow the flows the workloads need.',
  };
}

function unselectedFindings(audit: NamespaceAudit): Finding[] {
  return groupByWorkload(audit.unselected.map((pod) => ({ pod, value: pod }))).map(({ workload, pods }) => ({
    rule: 'network.pod-not-selected',
    severity: 'low',
    title: `${describeObject(workload)} is selected by no NetworkPolicy (${count(pods.length, 'pod')})`,
    object: workload,
    why: `Namespace ${audit.namespace} has policies, but none selects these pods: their traffic is not restricted at all.`,
    fix: 'Add a default-deny policy for the namespace, or extend a policy’s podSelector to these pods.',
  }));
}

/** Network policy audit: namespaces without policies, pods no policy selects, rules that allow all ingress or egress. */
export async function networkPolicyAudit(context: ReportContext): Promise<SectionContent> {
  const [namespaces, pods, policies] = await Promise.all([
    context.reader.namespaces(),
    context.list<Pod>(refs.pods),
    context.list<NetworkPolicy>(refs.networkPolicies),
  ]);
  const audits = auditNamespaces(namespaces, pods, policies);
  const findings: Finding[] = [];
  for (const audit of audits) {
    if (audit.policies.length === 0 && audit.pods.length > 0) findings.push(namespaceFinding(audit));
    else if (audit.policies.length > 0) findings.push(...unselectedFindings(audit));
  }
  findings.push(...policies.flatMap(openRuleFindings));
  const rows = audits.map((audit) => [
    audit.namespace,
    audit.pods.length,
    audit.policies.length,
    audit.policies.length === 0 ? audit.pods.length : audit.unselected.length,
  ]);
  const bare = audits.filter((audit) => audit.policies.length === 0 && audit.pods.length > 0).length;
  return {
    summary: `${count(audits.length, 'namespace')}, ${count(policies.length, 'NetworkPolicy', 'NetworkPolicies')}; ${count(bare, 'namespace')} with pods and no policy.`,
    tables: limitedTableOf('Namespaces', ['Namespace', 'Pods', 'NetworkPolicies', 'Pods selected by none'], rows),
    findings,
  };
}
