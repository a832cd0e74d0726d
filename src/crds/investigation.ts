import { z } from 'zod';
import { conditionSchema, objectSchema, type CustomKind } from './common.js';

export const investigationKind: CustomKind = { kind: 'Investigation', plural: 'investigations', namespaced: true };

export const investigationPhases = ['Pending', 'Running', 'Concluded', 'Failed', 'Skipped'] as const;
export type InvestigationPhase = (typeof investigationPhases)[number];

/** What started an investigation (the `trigger` label of `pilothouse_investigations_total`). */
export type InvestigationTrigger = 'alert' | 'api' | 'kubectl';

/** The object an investigation is about. */
export const investigationSubjectSchema = z
  .object({
    kind: z
      .string()
      .min(1)
      .max(63)
      .regex(/^[A-Z][A-Za-z0-9]*$/, 'a kind such as Deployment'),
    namespace: z
      .string()
      .max(63)
      .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'a namespace name')
      .optional(),
    name: z.string().min(1).max(253),
  })
  .meta({ id: 'InvestigationSubject' });
export type InvestigationSubject = z.infer<typeof investigationSubjectSchema>;

/** The Alertmanager alert behind an investigation (webhook payload version 4). */
export const investigationAlertSchema = z.object({
  labels: z.record(z.string(), z.string()).default({}),
  annotations: z.record(z.string(), z.string()).default({}),
  startsAt: z.string().optional(),
  fingerprint: z.string().min(1).max(128),
  generatorURL: z.string().max(2048).optional(),
});
export type InvestigationAlert = z.infer<typeof investigationAlertSchema>;

export const investigationSpecSchema = z.object({
  question: z.string().min(1).max(4000),
  subject: investigationSubjectSchema.optional(),
  alert: investigationAlertSchema.optional(),
  /** The cluster investigated; absent: the home cluster (`cluster.name`). */
  cluster: z.string().min(1).max(63).optional(),
  /** `alertmanager`, the asking user, or the creating Kubernetes user (admission-checked). */
  requester: z.string().optional(),
});
export type InvestigationSpec = z.infer<typeof investigationSpecSchema>;

export const investigationFindingSchema = z
  .object({ title: z.string(), detail: z.string().optional(), evidence: z.string().optional() })
  .meta({ id: 'InvestigationFinding' });
export type InvestigationFinding = z.infer<typeof investigationFindingSchema>;

export const suggestedActionSchema = z
  .object({
    command: z.string(),
    /** Pilothouse's own safety class (never the model's). */
    class: z.string(),
    rationale: z.string().optional(),
    approvedBy: z.string().optional(),
    approvedAt: z.string().optional(),
    outcome: z.string().optional(),
  })
  .meta({ id: 'InvestigationSuggestedAction' });
export type SuggestedAction = z.infer<typeof suggestedActionSchema>;

export const investigationStatusSchema = z.object({
  phase: z.enum(investigationPhases).optional(),
  conditions: z.array(conditionSchema).optional(),
  summary: z.string().optional(),
  findings: z.array(investigationFindingSchema).optional(),
  suggestedActions: z.array(suggestedActionSchema).optional(),
  session: z.string().optional(),
  model: z.string().optional(),
  tokens: z.number().int().min(0).optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
});
export type InvestigationStatus = z.infer<typeof investigationStatusSchema>;

export const investigationSchema = objectSchema(investigationSpecSchema, investigationStatusSchema);
export type Investigation = z.infer<typeof investigationSchema>;

/** Labels Pilothouse sets on the Investigations it creates. */
export const investigationLabels = {
  trigger: 'pilothouse.dev/trigger',
  fingerprint: 'pilothouse.dev/alert-fingerprint',
} as const;

/** Annotations Pilothouse sets on Investigations. */
export const investigationAnnotations = {
  /** When the alert of the investigation resolved (the reconciler then sets the AlertResolved condition). */
  alertResolvedAt: 'pilothouse.dev/alert-resolved-at',
} as const;

/** What started `investigation`: an alert, the API (Pilothouse's label), or kubectl. */
export function triggerOf(investigation: Investigation): InvestigationTrigger {
  if (investigation.spec.alert) return 'alert';
  return investigation.metadata.labels?.[investigationLabels.trigger] === 'api' ? 'api' : 'kubectl';
}
