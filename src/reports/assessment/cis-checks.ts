import type { Severity } from '../document/document.js';
import { containersOf, type Container, type Pod } from '../context/kube-shapes.js';

/** One workload item of CIS Kubernetes Benchmark section 5 readable from the API. */
export interface CisCheck {
  rule: string;
  severity: Severity;
  /** What is wrong, as a phrase (`runs privileged containers`). */
  title: string;
  why: string;
  fix: string;
  /** Names of the offending containers (or `pod` for pod-level settings); empty when the pod passes. */
  test(pod: Pod): string[];
}

type ContainerTest = (container: Container, pod: Pod) => boolean;

const named = (pod: Pod, test: ContainerTest): string[] =>
  containersOf(pod.spec)
    .filter((container) => test(container, pod))
    .map((container) => container.name ?? '');

const podLevel = (violates: boolean): string[] => (violates ? ['pod'] : []);

function runsAsRoot(container: Container, pod: Pod): boolean {
  const own = container.securityContext;
  const shared = pod.spec?.securityContext;
  const nonRoot = own?.runAsNonRoot ?? shared?.runAsNonRoot;
  const user = own?.runAsUser ?? shared?.runAsUser;
  return nonRoot !== true && !(user !== undefined && user > 0);
}

/** CIS Kubernetes Benchmark v1.9 section 5.2 (and 5.7.3), plus resource limits. */
export const cisChecks: CisCheck[] = [
  {
    rule: 'cis.5.2.2',
    severity: 'critical',
    title: 'runs privileged containers',
    why: 'A privileged container has every capability and the host’s devices: escaping to the node is trivial.',
    fix: 'Remove securityContext.privileged; grant the single capability the container needs, if any.',
    test: (pod) => named(pod, (container) => container.securityContext?.privileged === true),
  },
  {
    rule: 'cis.5.2.3',
    severity: 'high',
    title: 'shares the host’s process namespace (hostPID)',
    why: 'With hostPID the pod sees and can signal every process of the node, and read their environment.',
    fix: 'Remove hostPID: true from the pod spec.',
    test: (pod) => podLevel(pod.spec?.hostPID === true),
  },
  {
    rule: 'cis.5.2.4',
    severity: 'high',
    title: 'shares the host’s IPC namespace (hostIPC)',
    why: 'With hostIPC the pod reaches the shared memory of every process of the node.',
    fix: 'Remove hostIPC: true from the pod spec.',
    test: (pod) => podLevel(pod.spec?.hostIPC === true),
  },
  {
    rule: 'cis.5.2.5',
    severity: 'high',
    title: 'uses the host’s network (hostNetwork)',
    why: 'With hostNetwork the pod bypasses NetworkPolicies and reaches services bound to the node’s loopback.',
    fix: 'Remove hostNetwork: true; expose ports through a Service instead.',
    test: (pod) => podLevel(pod.spec?.hostNetwork === true),
  },
  {
    rule: 'cis.5.2.6',
    severity: 'medium',
    title: 'allows privilege escalation',
    why: 'Unless allowPrivilegeEscalation is false, a process can gain more privileges than its parent (setuid binaries).',
    fix: 'Set securityContext.allowPrivilegeEscalation: false on every container.',
    test: (pod) => named(pod, (container) => container.securityContext?.allowPrivilegeEscalation !== false),
  },
  {
    rule: 'cis.5.2.7',
    severity: 'medium',
    title: 'may run as root (runAsNonRoot not set)',
    why: 'A container running as root is one kernel or runtime flaw away from root on the node.',
    fix: 'Set runAsNonRoot: true (and a non-zero runAsUser) in the pod or container securityContext.',
    test: (pod) => named(pod, runsAsRoot),
  },
  {
    rule: 'cis.5.2.9',
    severity: 'medium',
    title: 'adds Linux capabilities',
    why: 'Added capabilities (SYS_ADMIN, NET_ADMIN, …) widen what a compromised process may do to the node.',
    fix: 'Drop ALL capabilities and add back only one the container provably needs.',
    test: (pod) => named(pod, (container) => (container.securityContext?.capabilities?.add ?? []).length > 0),
  },
  {
    rule: 'cis.5.2.11',
    severity: 'high',
    title: 'runs Windows HostProcess containers',
    why: 'A HostProcess container runs directly on the Windows node with its privileges.',
    fix: 'Remove windowsOptions.hostProcess.',
    test: (pod) => named(pod, (container) => container.securityContext?.windowsOptions?.hostProcess === true),
  },
  {
    rule: 'cis.5.2.12',
    severity: 'high',
    title: 'mounts hostPath volumes',
    why: 'hostPath exposes the node’s file system: credentials of the kubelet, the container runtime socket.',
    fix: 'Use persistent volumes, configMaps or emptyDir instead of hostPath.',
    test: (pod) => (pod.spec?.volumes ?? []).filter((volume) => volume.hostPath).map((volume) => volume.name ?? ''),
  },
  {
    rule: 'cis.5.2.13',
    severity: 'medium',
    title: 'binds host ports',
    why: 'hostPort ties the pod to node ports and bypasses Service-level controls.',
    fix: 'Remove hostPort; expose the port through a Service.',
    test: (pod) => named(pod, (container) => (container.ports ?? []).some((port) => (port.hostPort ?? 0) > 0)),
  },
  {
    rule: 'cis.5.7.3',
    severity: 'low',
    title: 'has a writable root file system (readOnlyRootFilesystem not true)',
    why: 'A writable root file system lets an intruder drop tools and change binaries in the container (CIS 5.7.3: apply a security context).',
    fix: 'Set securityContext.readOnlyRootFilesystem: true and mount emptyDir where the process must write.',
    test: (pod) => named(pod, (container) => container.securityContext?.readOnlyRootFilesystem !== true),
  },
  {
    rule: 'compliance.resource-limits',
    severity: 'low',
    title: 'has containers without CPU or memory limits',
    why: 'Without limits one container can starve its node (not a numbered CIS item; CIS 5.7 and the NSA/CISA hardening guide ask for it).',
    fix: 'Set resources.limits.cpu and resources.limits.memory on every container (or a LimitRange for the namespace).',
    test: (pod) => named(pod, (container) => !container.resources?.limits?.cpu || !container.resources.limits.memory),
  },
];
