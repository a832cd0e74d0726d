import { z } from 'zod';
import { durationSchema } from './duration.js';
import { roleNames } from './role-schemas.js';

/** A key of a Secret in Pilothouse's namespace. */
const secretKeySchema = z.object({ name: z.string().min(1), key: z.string().min(1) });

/** Where a concluded investigation is announced: a generic JSON webhook or a Slack-compatible one, the URL from a Secret. */
export const investigationNotificationSchema = z.object({
  type: z.enum(['webhook', 'slack']),
  url_secret: secretKeySchema,
});
export type InvestigationNotificationConfig = z.infer<typeof investigationNotificationSchema>;

/** Config `investigations` (docs/user-guide/investigations.md). */
export const investigationsSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** The bearer token Alertmanager sends to POST /api/alerts/alertmanager (or `webhook_token_secret`). */
    webhook_token: z.string().min(16).optional(),
    webhook_token_secret: secretKeySchema.optional(),
    /** A firing alert with the fingerprint of an investigation younger than this starts none. */
    cooldown: durationSchema.default(30 * 60_000),
    /** Investigations running at once (leader); the others wait Pending. */
    concurrency: z.number().int().min(1).max(20).default(2),
    /** Input + output tokens of all investigations per UTC day; past it new ones are Skipped. Absent: no budget. */
    daily_token_budget: z.number().int().min(0).optional(),
    /** Model calls per investigation. */
    max_steps: z.number().int().min(1).max(100).default(15),
    /** The identity investigations read with: the impersonation mapping of `mapping` and extra resource-level roles. */
    identity: z.object({ mapping: z.enum(roleNames).default('viewer'), roles: z.array(z.string()).default([]) }).prefault({}),
    /** The registry's tools offered to investigations, by name (absent ones are left out); `conclude` is always offered. */
    tools: z.array(z.string().min(1)).default(['kubectl', 'problems', 'promql', 'promql_range', 'history', 'runbook']),
    notifications: z.array(investigationNotificationSchema).default([]),
    /** Notification URLs may be plain http. */
    allow_http: z.boolean().default(false),
    /** Notification URLs may point at private, loopback or link-local addresses. */
    allow_private_urls: z.boolean().default(false),
  })
  .prefault({});
export type InvestigationsConfig = z.infer<typeof investigationsSchema>;
