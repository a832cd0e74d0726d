import { z } from 'zod';
import { conditionSchema, objectSchema, type CustomKind } from './common.js';

export const accessRequestKind: CustomKind = { kind: 'AccessRequest', plural: 'accessrequests', namespaced: true };

export const accessRequestSpecSchema = z.object({
  requester: z.string().min(1),
  permission: z.enum(['execute_write', 'delete']),
  namespaces: z.array(z.string()).default([]),
  resources: z.array(z.string()).default([]),
  reason: z.string().max(2000).optional(),
  /** The cluster the grant holds on (ADR 0035); absent: the home cluster (`cluster.name`). */
  cluster: z.string().min(1).max(63).optional(),
  ttl: z.string().regex(/^(\d+(ms|s|m|h|d))+$/, 'a duration such as 30m or 2h'),
});

export const accessRequestStatusSchema = z.object({
  phase: z.enum(['Pending', 'Approved', 'Denied', 'Expired']).optional(),
  reviewer: z.string().optional(),
  reviewedAt: z.string().optional(),
  expiresAt: z.string().optional(),
  message: z.string().optional(),
  /** The cluster the grant holds on, as `kubectl get` shows it (`spec.cluster`, else the home cluster's name); written by the controller. */
  cluster: z.string().optional(),
  /** `spec.namespaces` as `kubectl get` shows it: comma-separated, or `*` for all; written by the controller. */
  namespaces: z.string().optional(),
  conditions: z.array(conditionSchema).optional(),
});

export const accessRequestSchema = objectSchema(accessRequestSpecSchema, accessRequestStatusSchema);
export type AccessRequest = z.infer<typeof accessRequestSchema>;
