import type { ResourceType } from '../kube/discovery.js';

/** One kind the problems engine watches in full (all namespaces, under the service's identity). */
export interface WatchedKind extends ResourceType {
  /** Only objects the analyzers read (e.g. TLS Secrets). */
  fieldSelector?: string;
  /** Another project's kind (Argo CD's, Flux's): watched only while the cluster's discovery serves it. */
  optional?: boolean;
}

interface KindOptions {
  clusterScoped?: boolean;
  fieldSelector?: string;
  optional?: boolean;
}

function kind(groupVersion: string, kindName: string, plural: string, options: KindOptions = {}): WatchedKind {
  const [group = '', version = ''] = groupVersion.includes('/') ? groupVersion.split('/') : ['', groupVersion];
  const namespaced = !options.clusterScoped;
  return {
    group,
    version,
    kind: kindName,
    plural,
    singular: kindName.toLowerCase(),
    shortNames: [],
    namespaced,
    verbs: ['list', 'watch'],
    fieldSelector: options.fieldSelector,
    ...(options.optional ? { optional: true } : {}),
  };
}

/**
 * Every kind the analyzers read. A kind the cluster does not serve (Argo CD's, Flux's, ours without CRDs) or the
 * service may not list (Secrets in some modes) is simply absent: its analyzers find nothing.
 */
export const watchedKinds: WatchedKind[] = [
  kind('v1', 'Pod', 'pods'),
  kind('v1', 'Event', 'events'),
  kind('v1', 'Service', 'services'),
  kind('v1', 'PersistentVolumeClaim', 'persistentvolumeclaims'),
  kind('v1', 'PersistentVolume', 'persistentvolumes', { clusterScoped: true }),
  kind('v1', 'Node', 'nodes', { clusterScoped: true }),
  kind('v1', 'ResourceQuota', 'resourcequotas'),
  kind('v1', 'Secret', 'secrets', { fieldSelector: 'type=kubernetes.io/tls' }),
  kind('apps/v1', 'Deployment', 'deployments'),
  kind('apps/v1', 'ReplicaSet', 'replicasets'),
  kind('apps/v1', 'StatefulSet', 'statefulsets'),
  kind('apps/v1', 'DaemonSet', 'daemonsets'),
  kind('batch/v1', 'Job', 'jobs'),
  kind('batch/v1', 'CronJob', 'cronjobs'),
  kind('networking.k8s.io/v1', 'Ingress', 'ingresses'),
  kind('networking.k8s.io/v1', 'IngressClass', 'ingressclasses', { clusterScoped: true }),
  kind('networking.k8s.io/v1', 'NetworkPolicy', 'networkpolicies'),
  kind('storage.k8s.io/v1', 'StorageClass', 'storageclasses', { clusterScoped: true }),
  kind('autoscaling/v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers'),
  kind('policy/v1', 'PodDisruptionBudget', 'poddisruptionbudgets'),
  kind('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', { clusterScoped: true }),
  kind('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', { clusterScoped: true }),
  kind('pilothouse.dev/v1alpha1', 'AccessRequest', 'accessrequests'),
  kind('pilothouse.dev/v1alpha1', 'Report', 'reports'),
  kind('pilothouse.dev/v1alpha1', 'MCPServer', 'mcpservers'),
  kind('argoproj.io/v1alpha1', 'Application', 'applications', { optional: true }),
  kind('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', 'kustomizations', { optional: true }),
  kind('helm.toolkit.fluxcd.io/v2', 'HelmRelease', 'helmreleases', { optional: true }),
];

/** The watched kind of a kind name (`Pod`). */
export function watchedKind(kindName: string): WatchedKind | undefined {
  return watchedKinds.find((entry) => entry.kind === kindName);
}
