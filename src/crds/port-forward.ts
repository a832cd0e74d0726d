import { z } from 'zod';
import { conditionSchema, objectSchema, type CustomKind } from './common.js';

export const portForwardKind: CustomKind = { kind: 'PortForward', plural: 'portforwards', namespaced: true };

export const portForwardSpecSchema = z.object({
  namespace: z.string().min(1),
  pod: z.string().min(1),
  podPort: z.number().int().min(1).max(65535),
  localPort: z.number().int().min(0).max(65535).default(0),
  requester: z.string().optional(),
  /** The cluster of the pod (ADR 0035); absent: the home cluster (`cluster.name`). */
  cluster: z.string().min(1).max(63).optional(),
});

export const portForwardStatusSchema = z.object({
  phase: z.enum(['Pending', 'active', 'failed']).optional(),
  localPort: z.number().int().optional(),
  address: z.string().optional(),
  message: z.string().optional(),
  observedGeneration: z.number().int().optional(),
  conditions: z.array(conditionSchema).optional(),
});

export const portForwardSchema = objectSchema(portForwardSpecSchema, portForwardStatusSchema);
export type PortForward = z.infer<typeof portForwardSchema>;
