import { z } from 'zod';
import { namespaceSchema } from '../kube/cache/names.js';
import { ttlProblem } from './grant-rules.js';

const ttlSchema = z.string().superRefine((ttl, context) => {
  const problem = ttlProblem(ttl);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** POST /api/access-requests. Empty `namespaces`/`resources` (or `*`) mean all. */
export const createAccessRequestBody = z.object({
  permission: z.enum(['execute_write', 'delete']),
  namespaces: z
    .array(z.union([namespaceSchema, z.literal('*')]))
    .max(50)
    .default([]),
  resources: z.array(z.string().min(1).max(253)).max(50).default([]),
  reason: z.string().max(2000).optional(),
  ttl: ttlSchema,
});
export type CreateAccessRequest = z.infer<typeof createAccessRequestBody>;

/** POST /api/access-requests/{id}/approve and /deny. */
export const decisionBody = z.object({ comment: z.string().max(2000).optional() });

/** GET /api/access-requests: `cluster` keeps one cluster's requests (any name: a removed cluster's requests stay listable). */
export const listAccessRequestsQuery = z.object({
  phase: z.enum(['Pending', 'Approved', 'Denied', 'Expired']).optional(),
  cluster: z
    .string()
    .max(63)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS-1123 label')
    .optional(),
});

/** The `{id}` path parameter. */
export const accessRequestIdParams = z.object({ id: z.string().min(1).max(253) });
