import type { AccessRequest } from '../crds/access-request.js';
import { clusterOfGrant, currentPhase, type AccessPhase } from './grant-rules.js';

/** The API shape of an access request. */
export interface AccessRequestView {
  id: string;
  requester: string;
  permission: string;
  namespaces: string[];
  resources: string[];
  /** The cluster the grant holds on (`spec.cluster`, else the home cluster). */
  cluster: string;
  reason: string | null;
  ttl: string;
  phase: AccessPhase;
  reviewer: string | null;
  reviewedAt: string | null;
  expiresAt: string | null;
  message: string | null;
  createdAt: string | null;
}

/** The API view at `now` (an approval past its expiry already reads `Expired`); `homeCluster` names requests without `spec.cluster`. */
export function accessRequestView(object: AccessRequest, now: number, homeCluster: string): AccessRequestView {
  const status = object.status ?? {};
  return {
    id: object.metadata.name,
    requester: object.spec.requester,
    permission: object.spec.permission,
    namespaces: object.spec.namespaces,
    resources: object.spec.resources,
    cluster: clusterOfGrant(object.spec, homeCluster),
    reason: object.spec.reason ?? null,
    ttl: object.spec.ttl,
    phase: currentPhase(object, now),
    reviewer: status.reviewer ?? null,
    reviewedAt: status.reviewedAt ?? null,
    expiresAt: status.expiresAt ?? null,
    message: status.message ?? null,
    createdAt: object.metadata.creationTimestamp ?? null,
  };
}
