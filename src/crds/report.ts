import { z } from 'zod';
import { conditionSchema, objectSchema, type CustomKind } from './common.js';

export const reportKind: CustomKind = { kind: 'Report', plural: 'reports', namespaced: true };

export const reportTypes = ['cluster-overview', 'security-assessment'] as const;
export const reportFormats = ['pdf', 'html', 'markdown', 'json', 'csv'] as const;
export const reportPhases = ['generating', 'completed', 'failed'] as const;
export type ReportPhase = (typeof reportPhases)[number];

export const reportSpecSchema = z.object({
  type: z.enum(reportTypes),
  format: z.enum(reportFormats),
  /** Scope; empty or absent = the whole cluster. */
  namespace: z.string().optional(),
  /** The Pilothouse user the report is generated for (admission-checked for kubectl-created Reports). */
  requester: z.string().optional(),
  /** The cluster the report is generated from (ADR 0035); absent: the home cluster (`cluster.name`). */
  cluster: z.string().min(1).max(63).optional(),
});

/** One step of a generation: a Kubernetes status condition (metav1.Condition). */
export const reportConditionSchema = conditionSchema;
export type ReportCondition = z.infer<typeof reportConditionSchema>;

export const reportStatusSchema = z.object({
  phase: z.enum(reportPhases).optional(),
  message: z.string().optional(),
  progress: z.number().int().min(0).max(100).optional(),
  completedAt: z.string().optional(),
  size: z.number().int().optional(),
  fileName: z.string().optional(),
  /** The cluster the report is generated from, as `kubectl get` shows it (`spec.cluster`, else the home cluster's name). */
  cluster: z.string().optional(),
  conditions: z.array(reportConditionSchema).optional(),
});
export type ReportStatus = z.infer<typeof reportStatusSchema>;

export const reportSchema = objectSchema(reportSpecSchema, reportStatusSchema);
export type Report = z.infer<typeof reportSchema>;
