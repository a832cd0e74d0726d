/**
 * The fields of Kubernetes objects the analyzers read, as the API server sends them (JSON, times as strings).
 * Everything is optional: objects of a cluster are not trusted to be full.
 */
import type { SelectorSpec } from '../reports/context/label-selectors.js';

export interface OwnerReference {
  kind?: string;
  name?: string;
  controller?: boolean;
}

export interface ObjectMetadata {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  ownerReferences?: OwnerReference[];
  resourceVersion?: string;
}

export interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** Any watched object: metadata plus loosely typed spec and status (each analyzer narrows them). */
export interface KubeThing {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetadata;
  spec?: object;
  status?: object;
  type?: string;
  data?: Record<string, string>;
  webhooks?: WebhookSpec[];
  involvedObject?: { kind?: string; namespace?: string; name?: string };
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  eventTime?: string;
}

export interface WebhookSpec {
  name?: string;
  failurePolicy?: string;
  clientConfig?: { service?: { namespace?: string; name?: string; port?: number } };
}

export interface ContainerStatusShape {
  name?: string;
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string; message?: string }; terminated?: { reason?: string; exitCode?: number; message?: string } };
  lastState?: { terminated?: { reason?: string; exitCode?: number; message?: string; finishedAt?: string } };
}

export interface ContainerShape {
  name?: string;
  ports?: Array<{ name?: string; containerPort?: number }>;
}

export interface PodShape extends KubeThing {
  spec?: { nodeName?: string; containers?: ContainerShape[] };
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    conditions?: Condition[];
    containerStatuses?: ContainerStatusShape[];
    initContainerStatuses?: ContainerStatusShape[];
  };
}

export interface WorkloadShape extends KubeThing {
  spec?: { replicas?: number; selector?: SelectorSpec; suspend?: boolean; schedule?: string; backoffLimit?: number };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    updatedReplicas?: number;
    conditions?: Condition[];
    desiredNumberScheduled?: number;
    numberUnavailable?: number;
    numberMisscheduled?: number;
    numberReady?: number;
    failed?: number;
    lastScheduleTime?: string;
    lastSuccessfulTime?: string;
  };
}

/** The owner a controller reference names. */
export function controllerOf(object: KubeThing): OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((owner) => owner.controller) ?? object.metadata?.ownerReferences?.[0];
}

export function conditionOf(conditions: Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((condition) => condition.type === type);
}
