/**
 * The few fields of Kubernetes objects the analysis reads, as the API server sends them (JSON,
 * timestamps as strings). Everything is optional: objects of the cluster are not trusted to be full.
 */
import type { RawObject } from './requester-reader.js';

export interface Metadata {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  creationTimestamp?: string;
  ownerReferences?: Array<{ kind?: string; name?: string; controller?: boolean }>;
}

export type Quantities = Record<string, string>;

export interface SecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  windowsOptions?: { hostProcess?: boolean };
}

export interface Container {
  name?: string;
  image?: string;
  securityContext?: SecurityContext;
  resources?: { requests?: Quantities; limits?: Quantities };
  ports?: Array<{ hostPort?: number; containerPort?: number }>;
}

export interface ContainerStatus {
  name?: string;
  restartCount?: number;
  imageID?: string;
  state?: { waiting?: { reason?: string; message?: string }; terminated?: { reason?: string } };
  lastState?: { terminated?: { reason?: string; exitCode?: number } };
}

export interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

export interface Pod extends RawObject {
  metadata?: Metadata;
  spec?: {
    nodeName?: string;
    serviceAccountName?: string;
    automountServiceAccountToken?: boolean;
    hostNetwork?: boolean;
    hostPID?: boolean;
    hostIPC?: boolean;
    securityContext?: SecurityContext;
    containers?: Container[];
    initContainers?: Container[];
    ephemeralContainers?: Container[];
    volumes?: Array<{ name?: string; hostPath?: { path?: string }; projected?: unknown }>;
  };
  status?: { phase?: string; reason?: string; conditions?: Condition[]; containerStatuses?: ContainerStatus[]; initContainerStatuses?: ContainerStatus[] };
}

export interface Node extends RawObject {
  metadata?: Metadata;
  spec?: { unschedulable?: boolean; taints?: Array<{ key?: string; effect?: string }> };
  status?: { capacity?: Quantities; allocatable?: Quantities; conditions?: Condition[]; nodeInfo?: { kubeletVersion?: string } };
}

export interface Workload extends RawObject {
  metadata?: Metadata;
  spec?: { replicas?: number; template?: { spec?: Pod['spec'] } };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    desiredNumberScheduled?: number;
    numberReady?: number;
    numberUnavailable?: number;
    succeeded?: number;
    failed?: number;
    active?: number;
    conditions?: Condition[];
  };
}

export interface KubeEvent extends RawObject {
  metadata?: Metadata;
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  eventTime?: string;
  involvedObject?: { kind?: string; name?: string; namespace?: string };
}

export interface NamespaceObject extends RawObject {
  metadata?: Metadata;
  status?: { phase?: string };
}

/** Every container of a pod spec: init, regular and ephemeral. */
export function containersOf(spec: Pod['spec']): Container[] {
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? []), ...(spec?.ephemeralContainers ?? [])];
}

/** `namespace/name`, or `name` for cluster-scoped objects. */
export function qualifiedName(metadata: Metadata | undefined): string {
  return metadata?.namespace ? `${metadata.namespace}/${metadata.name ?? ''}` : (metadata?.name ?? '');
}
