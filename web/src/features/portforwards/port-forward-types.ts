import type { components } from '@pilothouse/wire/types';

/** One forward as `GET /api/portforward` lists it. */
export type PortForward = components['schemas']['PortForward'];

/** A port an object offers: the pod's container port, or the service's target port. */
export interface OfferedPort {
  port: number;
  name?: string;
}

interface PodSpec {
  containers?: { ports?: { containerPort: number; name?: string }[] }[];
}
interface ServiceSpec {
  selector?: Record<string, string>;
  ports?: { port: number; targetPort?: number | string; name?: string }[];
}

/** The container ports of a pod object. */
export function podPorts(pod: { spec?: PodSpec }): OfferedPort[] {
  return (pod.spec?.containers ?? []).flatMap((container) => (container.ports ?? []).map((port) => ({ port: port.containerPort, name: port.name })));
}

/** The ports of a service object, as the pod port they reach (a numeric targetPort, else the port). */
export function servicePorts(service: { spec?: ServiceSpec }): OfferedPort[] {
  return (service.spec?.ports ?? []).map((port) => ({ port: typeof port.targetPort === 'number' ? port.targetPort : port.port, name: port.name }));
}

/** A service's selector as a label selector (`a=b,c=d`), or undefined when it selects nothing. */
export function selectorOf(service: { spec?: ServiceSpec }): string | undefined {
  const entries = Object.entries(service.spec?.selector ?? {});
  return entries.length ? entries.map(([key, value]) => `${key}=${value}`).join(',') : undefined;
}

/** What a forward goes to, as people name it: `namespace/service/name:port` for a Service's, else `namespace/pod:port`. */
export function targetOf(forward: Pick<PortForward, 'namespace' | 'pod' | 'podPort' | 'service'>): string {
  return forward.service ? `${forward.namespace}/service/${forward.service}:${forward.podPort}` : `${forward.namespace}/${forward.pod}:${forward.podPort}`;
}

/** The forward's local `host:port`, when it has one. */
export function addressOf(forward: Pick<PortForward, 'address' | 'localPort'>): string | undefined {
  return forward.address ?? (forward.localPort ? `127.0.0.1:${forward.localPort}` : undefined);
}
