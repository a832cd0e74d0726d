import { z } from 'zod';
import { forbidden, validation } from '../../errors.js';
import { ownsOrAdministers } from '../../rbac/ownership.js';
import type { UsageRecorder } from '../../usage/usage-recorder.js';
import { principalOf } from '../request-state.js';
import { route, type RouteSpec } from '../types.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface UsageRouteDeps {
  pilot: { usage: Pick<UsageRecorder, 'report'> };
}

const utcDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a UTC day YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'not a day');

const usageQuery = z.object({
  from: utcDay.optional(),
  to: utcDay.optional(),
  user: z.string().min(1).max(128).optional(),
  cluster: z
    .string()
    .max(63)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS-1123 label')
    .optional(),
  model: z.string().min(1).max(256).optional(),
  source: z.enum(['chat', 'investigation']).optional(),
});

const sums = {
  calls: z.number().int(),
  inputTokens: z.number().int().meta({ description: 'Prompt tokens, the cached part included' }),
  outputTokens: z.number().int(),
  cachedInputTokens: z.number().int(),
  cost: z.number().meta({ description: 'From config llm.prices (per million tokens); 0 for a model without a price' }),
};

export const usageTotals = z.object(sums).meta({ id: 'UsageTotals' });

export const usageGroup = z
  .object({
    day: z.string().meta({ description: 'UTC day, YYYY-MM-DD' }),
    username: z.string(),
    cluster: z.string().nullable(),
    provider: z.string(),
    model: z.string(),
    ...sums,
  })
  .meta({ id: 'UsageGroup' });

export const usageReport = z
  .object({ items: z.array(usageGroup), total: z.number().int(), totals: usageTotals })
  .meta({ id: 'UsageReport', description: 'Model calls summed by UTC day, user, cluster, provider and model (newest day first), and the totals' });

/**
 * LLM usage: `GET /api/usage`. Admins see every user's rows (and may filter by `user`); anyone else
 * sees only their own, and asking for another user's is FORBIDDEN.
 */
export function usageRoutes(deps: UsageRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/usage',
      permission: 'authenticated',
      summary:
        'Tokens and cost of model calls by UTC day, user, cluster, provider and model, with totals; filters from, to, user, cluster, model, source (others than admins: their own only)',
      query: usageQuery,
      response: usageReport,
      handler: async (context, { query }) => {
        const principal = principalOf(context);
        if (query.from && query.to && query.from > query.to) throw validation('from must not be after to', { fields: { from: 'after to' } });
        if (!ownsOrAdministers(principal, query.user ?? principal.username)) {
          throw forbidden("only admins see other users' usage", { reason: 'own_usage_only' });
        }
        const username = principal.role === 'admin' ? query.user : principal.username;
        context.body = await deps.pilot.usage.report({
          from: query.from,
          to: query.to,
          cluster: query.cluster,
          model: query.model,
          source: query.source,
          username,
        });
      },
    }),
  ];
}
