import { z } from 'zod';
import type { AccessActor } from '../../access/access-request-audit.js';
import type { Decision } from '../../access/access-request-review.js';
import { accessRequestIdParams, createAccessRequestBody, decisionBody, listAccessRequestsQuery } from '../../access/access-request-schemas.js';
import { requestAuditFields } from '../audit-context.js';
import { principalOf } from '../request-state.js';
import { accessRequest, itemsOf } from '../schemas/api-schemas.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import type { AccessRequests } from '../../access/access-requests.js';

/** Request bodies, named in the OpenAPI document (components/schemas). */
const accessRequestCreateBody = createAccessRequestBody.meta({ id: 'AccessRequestCreateBody' });
const accessDecisionBody = decisionBody.meta({ id: 'AccessDecisionBody' });

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface AccessRequestsRouteDeps {
  accessRequests: AccessRequests;
}

const requestShape = '{id, requester, permission, namespaces, resources, cluster, reason, ttl, phase, reviewer, reviewedAt, expiresAt, message, createdAt}';

function actorOf(context: AppContext): AccessActor {
  return { principal: principalOf(context), audit: requestAuditFields(context) };
}

/**
 * The cluster a new request is for: the one the route layer resolved (`cluster: true`), else `?cluster=`
 * as sent; AccessRequests.create answers 404 for a name no cluster has.
 */
function requestedCluster(context: AppContext): string | undefined {
  if (context.state.clusterName) return context.state.clusterName;
  const named = context.query.cluster;
  return typeof named === 'string' ? named : undefined;
}

/** Just-in-time access (docs/adr/0007-just-in-time-access-grants.md): Pending → Approved with a TTL → Expired, or Denied. */
export function accessRequestRoutes(deps: AccessRequestsRouteDeps): RouteSpec[] {
  const decide = (decision: Decision, verb: string): RouteSpec =>
    route({
      method: 'POST',
      path: `/api/access-requests/:id/${verb}`,
      permission: 'manage_users',
      summary: `${decision === 'approved' ? 'Approve (reviewer ≠ requester; starts the TTL)' : 'Deny'} a Pending request {comment?}: ${requestShape}`,
      params: accessRequestIdParams,
      body: accessDecisionBody,
      response: accessRequest,
      handler: async (context, { params, body }) => {
        context.body = await deps.accessRequests.decide(actorOf(context), params.id, decision, body.comment);
      },
    });
  return [
    route({
      method: 'POST',
      path: '/api/access-requests',
      permission: 'authenticated',
      summary: `Ask for temporary access on ?cluster= (default home) {permission: "execute_write", namespaces?, resources?, reason?, ttl} (roles user and admin): 201 ${requestShape}`,
      cluster: true,
      body: accessRequestCreateBody,
      status: 201,
      response: accessRequest,
      handler: async (context, { body }) => {
        context.body = await deps.accessRequests.create(actorOf(context), body, requestedCluster(context));
        context.status = 201;
      },
    }),
    route({
      method: 'GET',
      path: '/api/access-requests',
      permission: 'authenticated',
      summary: `The caller's requests (all for admins) on every cluster, newest first, ?phase=Pending|Approved|Denied|Expired, ?cluster=NAME: {items: [${requestShape}]}`,
      query: listAccessRequestsQuery,
      response: itemsOf(accessRequest),
      handler: async (context, { query }) => {
        context.body = { items: await deps.accessRequests.list(principalOf(context), query) };
      },
    }),
    route({
      method: 'GET',
      path: '/api/access-requests/:id',
      permission: 'authenticated',
      summary: `One request (own, or any for admins): ${requestShape}`,
      params: accessRequestIdParams,
      response: accessRequest,
      handler: async (context, { params }) => {
        context.body = await deps.accessRequests.get(principalOf(context), params.id);
      },
    }),
    decide('approved', 'approve'),
    decide('denied', 'deny'),
    route({
      method: 'DELETE',
      path: '/api/access-requests/:id',
      permission: 'authenticated',
      summary: 'Withdraw an own request or (admin) revoke any, ending its grant at once: {id, event: "withdrawn"|"revoked", phase}',
      params: accessRequestIdParams,
      response: z
        .object({ id: z.string(), event: z.enum(['withdrawn', 'revoked']), phase: z.string() })
        .catchall(z.unknown())
        .meta({ id: 'AccessRequestEnded' }),
      handler: async (context, { params }) => {
        context.body = await deps.accessRequests.remove(actorOf(context), params.id);
      },
    }),
  ];
}
