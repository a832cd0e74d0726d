import type { RestClient } from '../kube/rest-client.js';

/** A Service that serves Prometheus' HTTP API, as the API server's service proxy names it. */
export interface DetectedService {
  namespace: string;
  name: string;
  port: string | number;
  path: string;
}

interface ServiceList {
  items: {
    metadata: { name: string; namespace: string; annotations?: Record<string, string> };
    spec?: { ports?: { name?: string; port: number }[] };
  }[];
}

/** Where Headlamp looks, in order: our own label, the common chart label, the prometheus-operator's Service. */
const searches: readonly Record<string, string>[] = [
  { labelSelector: 'pilothouse.dev/prometheus=true' },
  { labelSelector: 'app.kubernetes.io/name=prometheus' },
  { fieldSelector: 'metadata.name=prometheus-operated' },
];

/** The port to proxy to: the annotation `pilothouse.dev/prometheus-port`, a port named web or http, 9090, or the first. */
function portOf(service: ServiceList['items'][number]): string | number | undefined {
  const annotated = service.metadata.annotations?.['pilothouse.dev/prometheus-port'];
  if (annotated) return annotated;
  const ports = service.spec?.ports ?? [];
  const chosen = ports.find((port) => port.name === 'web' || port.name === 'http') ?? ports.find((port) => port.port === 9090) ?? ports[0];
  return chosen?.name || chosen?.port;
}

/**
 * The cluster's Prometheus Service, found the way Headlamp finds it (issue 36), with the service's own identity;
 * several matches of one search: the first by namespace and name. A sub-path comes from the annotation
 * `pilothouse.dev/prometheus-path`. Undefined when nothing matches.
 */
export async function detectPrometheus(rest: RestClient, signal?: AbortSignal): Promise<DetectedService | undefined> {
  for (const query of searches) {
    const list = await rest.json<ServiceList>('GET', '/api/v1/services', { query, signal, target: 'services' });
    const sorted = [...list.items].sort((left, right) =>
      `${left.metadata.namespace}/${left.metadata.name}`.localeCompare(`${right.metadata.namespace}/${right.metadata.name}`),
    );
    for (const service of sorted) {
      const port = portOf(service);
      if (port === undefined) continue;
      const path = service.metadata.annotations?.['pilothouse.dev/prometheus-path'] ?? '';
      return { namespace: service.metadata.namespace, name: service.metadata.name, port, path };
    }
  }
  return undefined;
}
