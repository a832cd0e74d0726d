import { z } from 'zod';
import { auditActions } from '../../audit/types.js';
import { validation } from '../../errors.js';
import { route, type RouteSpec } from '../types.js';
import { queryInteger } from '../schemas/validate.js';
import { auditEntry, listOf } from '../schemas/api-schemas.js';
import type { AuditView } from '../../audit/audit-outbox.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface AuditRouteDeps {
  /** Every replica's rows with the shared store (ADR 0032), else this replica's. */
  auditView: AuditView;
}

const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 date (`2024-05-01`, the whole UTC day) or date-time with `Z` or an offset, as a UTC ISO string. */
function boundary(edge: 'from' | 'to'): z.ZodType<string, string> {
  return z.string().transform((value, context) => {
    const isDate = dateOnly.test(value);
    const text = isDate ? `${value}T${edge === 'from' ? '00:00:00.000' : '23:59:59.999'}Z` : value;
    const time = Date.parse(text);
    const valid = (isDate || dateTime.test(value)) && !Number.isNaN(time) && (!isDate || new Date(time).toISOString().startsWith(value));
    if (!valid) {
      context.addIssue({ code: 'custom', message: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with Z or an offset' });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  });
}

export const auditQuerySchema = z.object({
  limit: queryInteger.pipe(z.number().int().min(1).max(1000)).optional(),
  offset: queryInteger.pipe(z.number().int().min(0)).optional(),
  action: z.enum(auditActions).optional(),
  user: z.string().min(1).max(128).optional(),
  from: boundary('from').optional(),
  to: boundary('to').optional(),
  /** Rows about one cluster (any name: a removed cluster's rows stay searchable). */
  cluster: z
    .string()
    .max(63)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS-1123 label')
    .optional(),
});

/** Audit log (docs/operator-manual/audit.md): `GET /api/audit`, admin only, newest first, filters combined. */
export function auditRoutes(deps: AuditRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/audit',
      permission: 'view_audit',
      summary: 'Audit entries newest first: limit (50, max 1000), offset, action, user, from, to, cluster',
      query: auditQuerySchema,
      response: listOf(auditEntry),
      handler: async (context, { query }) => {
        if (query.from && query.to && query.from > query.to) throw validation('from must not be after to', { fields: { from: 'after to' } });
        const result = await deps.auditView.query({ ...query, limit: query.limit ?? 50, offset: query.offset ?? 0 });
        context.body = { items: result.items, total: result.total };
      },
    }),
  ];
}
