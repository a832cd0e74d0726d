import type { ReactNode } from 'react';
import { Facts, Lines } from './Facts';
import { list, record, selectorText, text } from './summary-model';

type Json = Record<string, unknown>;

/** `http 80→8080/TCP (node 30080)` for each port of a service. */
function servicePorts(spec: Json): string[] {
  return list(spec.ports).map((port) => {
    const target = text(port.targetPort);
    const node = text(port.nodePort);
    return `${text(port.name) ? `${text(port.name)} ` : ''}${text(port.port)}${target ? `→${target}` : ''}/${text(port.protocol) || 'TCP'}${node ? ` (node ${node})` : ''}`;
  });
}

/** A Service: type, cluster and external addresses, ports, selector, session affinity. */
export function ServiceSummary({ object }: { object: Json }): ReactNode {
  const spec = record(object.spec);
  const ingress = list(record(record(object.status).loadBalancer).ingress).map((entry) => text(entry.ip) || text(entry.hostname));
  const external = [...(Array.isArray(spec.externalIPs) ? spec.externalIPs.map(text) : []), ...ingress, text(spec.externalName)].filter(Boolean);
  return (
    <Facts
      title="summary.service"
      facts={[
        ['summary.type', text(spec.type) || 'ClusterIP'],
        ['summary.clusterIp', <span className="mono">{text(spec.clusterIP)}</span>],
        ['summary.externalIp', external.join(', ')],
        ['summary.ports', <Lines values={servicePorts(spec)} />],
        ['summary.selector', <span className="mono small">{selectorText(spec.selector) || '-'}</span>],
        ['summary.sessionAffinity', text(spec.sessionAffinity)],
      ]}
    />
  );
}

function quantity(values: Json, key: string): string {
  return text(values[key]);
}

/** A Node: readiness, roles, schedulability, versions, addresses, capacity and allocatable, taints. */
export function NodeSummary({ object }: { object: Json }): ReactNode {
  const spec = record(object.spec);
  const status = record(object.status);
  const info = record(status.nodeInfo);
  const ready = list(status.conditions).find((condition) => condition.type === 'Ready');
  const roles = Object.keys(record(record(object.metadata).labels))
    .filter((key) => key.startsWith('node-role.kubernetes.io/'))
    .map((key) => key.slice('node-role.kubernetes.io/'.length));
  const capacity = record(status.capacity);
  const allocatable = record(status.allocatable);
  const resources = ['cpu', 'memory', 'pods'].map((key) => `${key}: ${quantity(allocatable, key) || '-'} / ${quantity(capacity, key) || '-'}`);
  const taints = list(spec.taints).map((taint) => `${text(taint.key)}${text(taint.value) ? `=${text(taint.value)}` : ''}:${text(taint.effect)}`);
  return (
    <Facts
      title="summary.node"
      facts={[
        ['summary.status', <span className={ready?.status === 'True' ? 'tone-good' : 'tone-bad'}>{ready?.status === 'True' ? 'Ready' : 'NotReady'}</span>],
        ['summary.schedulable', spec.unschedulable === true ? 'SchedulingDisabled' : 'true'],
        ['summary.roles', roles.join(', ') || '-'],
        ['summary.addresses', <Lines values={list(status.addresses).map((address) => `${text(address.type)}: ${text(address.address)}`)} />],
        ['summary.kubelet', text(info.kubeletVersion)],
        ['summary.os', [text(info.osImage), text(info.architecture)].filter(Boolean).join(' · ')],
        ['summary.runtime', text(info.containerRuntimeVersion)],
        ['summary.allocatable', <Lines values={resources} />],
        ['summary.taints', <Lines values={taints} />],
      ]}
    />
  );
}
