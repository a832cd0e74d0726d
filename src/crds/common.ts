import { z } from 'zod';

export const group = 'pilothouse.dev';
export const version = 'v1alpha1';
export const apiVersion = `${group}/${version}`;

/** Identifies one of our kinds for REST paths. */
export interface CustomKind {
  kind: string;
  plural: string;
  namespaced: true;
}

/** Metadata fields we read and write. */
export const metadataSchema = z.object({
  name: z.string(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().optional(),
  creationTimestamp: z.string().optional(),
  deletionTimestamp: z.string().optional(),
  finalizers: z.array(z.string()).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

/** A status condition in the Kubernetes shape (metav1.Condition); every kind's status has `conditions`. */
export const conditionSchema = z.object({
  type: z.string(),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().optional(),
  message: z.string().optional(),
  observedGeneration: z.number().int().optional(),
  lastTransitionTime: z.string().optional(),
});
export type Condition = z.infer<typeof conditionSchema>;

/** Builds the object schema of a kind from its spec and status schemas. */
export function objectSchema<Spec extends z.ZodType, Status extends z.ZodType>(
  spec: Spec,
  status: Status,
): z.ZodObject<{
  apiVersion: z.ZodOptional<z.ZodString>;
  kind: z.ZodOptional<z.ZodString>;
  metadata: typeof metadataSchema;
  spec: Spec;
  status: z.ZodOptional<Status>;
}> {
  return z.object({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    metadata: metadataSchema,
    spec,
    status: status.optional(),
  });
}
