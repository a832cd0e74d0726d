import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { investigationLabels, investigationSchema, investigationSubjectSchema } from '../../crds/investigation.js';
import { forbidden, notFound, unauthorized } from '../../errors.js';
import { alertDeliverySchema, alertmanagerPayloadSchema } from '../../investigations/alertmanager-webhook.js';
import type { InvestigationsArea } from '../../investigations/investigations-area.js';
import { listed, listOf } from '../schemas/api-schemas.js';
import { requestAuditFields, type AuditContextDeps } from '../audit-context.js';
import { clusterFilterQuery, clusterParameter } from '../schemas/cluster-schemas.js';
import { principalOf } from '../request-state.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import { objectNameSchema } from '../schemas/validate.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface InvestigationsRouteDeps extends AuditContextDeps {
  investigations: InvestigationsArea;
}

const investigationView = investigationSchema.meta({ id: 'Investigation' });

const createBody = z
  .object({
    question: z.string().trim().min(1).max(4000),
    subject: investigationSubjectSchema.optional(),
    /** The cluster to investigate (GET /api/clusters); absent: the home cluster. */
    cluster: clusterParameter.optional(),
  })
  .meta({ id: 'InvestigationCreateBody' });

const actionParams = z.object({
  name: objectNameSchema,
  index: z
    .string()
    .regex(/^\d{1,3}$/, 'a number')
    .transform(Number),
});

const actionRunSchema = z
  .object({ index: z.number().int(), command: z.string(), status: z.enum(['executed', 'error']), output: z.string(), approvedBy: z.string() })
  .meta({ id: 'InvestigationActionRun' });

function bearerOf(context: AppContext): string {
  const header = context.get('authorization');
  return /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
}

function sameToken(given: string, wanted: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(wanted);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Refuses a delivery without Alertmanager's bearer token (audited as a denied execute). */
async function checkWebhookToken(deps: InvestigationsRouteDeps, context: AppContext): Promise<void> {
  const wanted = await deps.investigations.webhookToken();
  if (wanted !== undefined && sameToken(bearerOf(context), wanted)) return;
  deps.audit.record({
    ...requestAuditFields(context),
    user: 'alertmanager',
    action: 'execute',
    resource: 'alerts/alertmanager',
    details: { command: 'deliver alerts' },
    decision: 'deny',
    outcome: 'unauthorized',
  });
  throw unauthorized(wanted === undefined ? 'no webhook token is configured (investigations.webhook_token or webhook_token_secret)' : 'invalid webhook token');
}

/** Investigations (issue 37): the Alertmanager receiver, asking, listing, reading, and approving a suggested action. */
export function investigationRoutes(deps: InvestigationsRouteDeps): RouteSpec[] {
  const area = deps.investigations;
  return [
    route({
      method: 'POST',
      path: '/api/alerts/alertmanager',
      permission: 'public',
      summary:
        "Alertmanager's webhook receiver (payload version 4, Authorization: Bearer investigations.webhook_token): each firing alert starts an Investigation (deduplicated by fingerprint within investigations.cooldown); a resolved one sets AlertResolved",
      body: alertmanagerPayloadSchema,
      response: alertDeliverySchema,
      errors: [401],
      authenticate: (context) => checkWebhookToken(deps, context),
      handler: async (context, { body }) => {
        const audit = (name: string, alertname: string): void => {
          deps.audit.record({
            ...requestAuditFields(context),
            user: 'alertmanager',
            action: 'execute',
            resource: `investigation/${name}`,
            cluster: area.homeCluster,
            details: { command: `investigate alert ${alertname}`.trim(), trigger: 'alert', alertname },
            decision: 'allow',
            outcome: 'success',
          });
        };
        const delivery = await area.receiver.deliver(body, audit);
        context.body = delivery;
      },
    }),
    route({
      method: 'POST',
      path: '/api/investigations',
      permission: 'execute_read',
      summary:
        'Ask the pilot to investigate (read-only) a question, optionally about an object, on a cluster (default home): 201 the Investigation (requester: you)',
      body: createBody,
      status: 201,
      response: investigationView,
      errors: [404],
      handler: async (context, { body }) => {
        const principal = principalOf(context);
        const cluster = body.cluster ?? area.homeCluster;
        if (!area.hasCluster(cluster)) throw notFound(`cluster ${cluster} not found`, { cluster });
        const namespace = body.subject?.namespace;
        if (!(await area.store.mayView(principal, cluster, namespace)))
          throw forbidden(`you may not view ${namespace ? `namespace ${namespace}` : 'the cluster'}`, { namespace: namespace ?? null });
        const spec = { question: body.question, requester: principal.username, cluster, ...(body.subject ? { subject: body.subject } : {}) };
        const investigation = await area.store.create(spec, { [investigationLabels.trigger]: 'api' });
        deps.audit.record({
          ...requestAuditFields(context),
          action: 'execute',
          resource: `investigation/${investigation.metadata.name}`,
          cluster,
          details: { command: `investigate ${body.question.slice(0, 200)}`, trigger: 'api' },
          decision: 'allow',
          outcome: 'success',
        });
        context.status = 201;
        context.body = investigation;
      },
    }),
    route({
      method: 'GET',
      path: '/api/investigations',
      permission: 'authenticated',
      summary:
        "The investigations the caller may see (own, and those about namespaces they may view; admin: all), newest first; ?cluster=NAME keeps one cluster's: {items, total}",
      query: clusterFilterQuery,
      response: listOf(investigationView),
      handler: async (context, { query }) => {
        context.body = listed(await area.store.list(principalOf(context), query.cluster));
      },
    }),
    route({
      method: 'GET',
      path: '/api/investigations/:name',
      permission: 'authenticated',
      summary: 'One investigation: spec, phase, conditions, summary, findings and suggested actions (404 when not visible to the caller)',
      params: z.object({ name: objectNameSchema }),
      response: investigationView,
      errors: [404],
      handler: async (context, { params }) => {
        context.body = await area.store.get(principalOf(context), params.name);
      },
    }),
    route({
      method: 'POST',
      path: '/api/investigations/:name/actions/:index/approve',
      permission: 'execute_read',
      summary:
        "Approve and run suggested action INDEX of a concluded investigation once, as the caller (the chat's role rules, the policy proxy, audit); a second approval is 409",
      params: actionParams,
      body: z.object({}).meta({ id: 'InvestigationApproveBody' }),
      response: actionRunSchema,
      errors: [404, 409],
      handler: async (context, { params }) => {
        context.body = await area.approval.approve(principalOf(context), params.name, params.index, requestAuditFields(context));
      },
    }),
  ];
}
