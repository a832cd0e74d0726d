import { z } from 'zod';
import { objectSchema, type CustomKind } from './common.js';

export const reportKind: CustomKind = { kind: 'Report', plural: 'reports', namespaced: true };

export const reportTypes = ['cluster-overview', 'security-assessment'] as const;
export const reportFormats = ['pdf', 'html', 'json', 'markdown'] as const;

export const reportSpecSchema = z.object({
  type: z.enum(reportTypes),
  format: z.enum(reportFormats),
  namespace: z.string().optional(),
  requester: z.string().optional(),
});

export const reportStatusSchema = z.object({
  phase: z.enum(['generating', 'completed', 'failed']).optional(),
  message: z.string().optional(),
  progress: z.number().int().min(0).max(100).optional(),
  completedAt: z.string().optional(),
  size: z.number().int().optional(),
  fileName: z.string().optional(),
});

export const reportSchema = objectSchema(reportSpecSchema, reportStatusSchema);
export type Report = z.infer<typeof reportSchema>;
