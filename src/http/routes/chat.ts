import { z } from 'zod';
import type { EmitEvent } from '../../agent/history/agent-events.js';
import { requestAuditFields } from '../audit-context.js';
import { startEventStream, type EventStream } from '../event-stream.js';
import { principalOf } from '../request-state.js';
import { chatEvents, chatHistory, chatSessionSummary } from '../schemas/chat-schemas.js';
import { deleted, listed, listOf } from '../schemas/api-schemas.js';
import { clusterParameter } from '../schemas/cluster-schemas.js';
import { chatCluster, clusterDirectoryOf, type ClusterSource } from '../../agent/cluster-directory.js';
import { route, type RouteSpec } from '../types.js';
import { validation } from '../../errors.js';
import type { Pilot } from '../../agent/pilot.js';
import type { Config } from '../../config/schema.js';
import type { Logger } from 'pino';
import type { AuditRecorder } from '../../audit/types.js';
import { isAppError } from '../../errors.js';
import type { Principal } from '../../rbac/principal.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface ChatRouteDeps {
  audit: AuditRecorder;
  config: Config;
  logger: Logger;
  pilot: Pilot;
  /** The cluster set (ADR 0035): which clusters a chat and its tool calls may name, and their reachability. */
  clusters: ClusterSource;
}

const chatBody = z
  .object({
    message: z.string().trim().min(1).max(32_000),
    context: z
      .object({
        namespace: z
          .union([
            z.literal(''),
            z
              .string()
              .max(63)
              .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS-1123 label'),
          ])
          .optional(),
        resource: z
          .string()
          .max(320)
          .regex(/^[A-Za-z0-9.-]+\/[A-Za-z0-9.:-]+$/, 'must be written <kind>/<name>')
          .or(z.literal(''))
          .optional(),
        /** The chat's cluster, as API users write it beside the namespace; the same as the top-level `cluster`. */
        cluster: clusterParameter.optional(),
        /** The time range on screen (a duration back from now, e.g. `1h`, `24h`): the AI uses it for history questions. */
        range: z
          .string()
          .regex(/^\d+(m|h|d)$/, 'must be a duration like 1h')
          .optional(),
        /** A finding's id (GET /api/problems) the question is about: the AI reads its evidence and hint first. */
        finding: z
          .string()
          .regex(/^[a-f0-9]{20}$/, 'must be the id of a finding')
          .optional(),
      })
      // An unknown context property is refused (400), never dropped: a dropped `cluster` ran the turn on home.
      .strict()
      .prefault({}),
    session_id: z.string().min(1).max(128).optional(),
    /** The chat's cluster (GET /api/clusters; ADR 0035): tool calls go there unless they name another. Absent: the home cluster. */
    cluster: clusterParameter.optional(),
  })
  .meta({ id: 'ChatBody' });

/** `?cluster=` as every cluster-facing route takes it; the same as the body's `cluster`. */
const chatQuery = z.object({ cluster: clusterParameter.optional() });

/** The chat's cluster from wherever the caller named it (query, body, context): named twice differently is a 400. */
function askedCluster(query: z.infer<typeof chatQuery>, body: z.infer<typeof chatBody>): string | undefined {
  const named = [query.cluster, body.cluster, body.context.cluster].filter((name): name is string => name !== undefined);
  const distinct = [...new Set(named)];
  if (distinct.length > 1) {
    throw validation('the chat names two different clusters', {
      fields: { cluster: `given as ${distinct.map((name) => JSON.stringify(name)).join(' and ')}` },
    });
  }
  return distinct[0];
}

const sessionQuery = z.object({ session_id: z.string().min(1).max(128).optional() });
const requiredSessionQuery = z.object({ session_id: z.string().min(1).max(128) });

interface TurnStart {
  principal: Principal;
  auditFields: ReturnType<typeof requestAuditFields>;
  cluster: string | undefined;
  sessionId: string | undefined;
}

/** Throws the chat budget's BUDGET_EXCEEDED, audited as a denied query. */
async function refuseOverBudget(deps: ChatRouteDeps, start: TurnStart): Promise<void> {
  try {
    await deps.pilot.chatBudgets.check(start.principal.username);
  } catch (error) {
    if (!isAppError(error) || error.code !== 'BUDGET_EXCEEDED') throw error;
    const { budget, used, resetsAt } = error.details;
    deps.audit.record({
      ...start.auditFields,
      action: 'query',
      resource: `chat/${start.sessionId ?? 'new'}`,
      cluster: start.cluster,
      details: { budget, used, resetsAt },
      decision: 'deny',
      outcome: error.message,
    });
    throw error;
  }
}

/** Heartbeat comments (config `server.sse_heartbeat`) keep proxies from closing a stream idle while a tool waits for approval. */
function startHeartbeat(stream: EventStream, intervalMs: number): () => void {
  const timer = setInterval(() => stream.write(': ping\n\n'), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * AI chat (docs/user-guide/ai-pilot.md): the agentic chat over SSE and the chat history. Any signed-in role may chat
 * (a viewer's tool calls are answered `forbidden`); sessions belong to their user.
 */
export function chatRoutes(deps: ChatRouteDeps): RouteSpec[] {
  const { chat, userSettings } = deps.pilot;
  const clusters = clusterDirectoryOf(deps.clusters);
  return [
    route({
      method: 'POST',
      path: '/api/chat/agentic',
      permission: 'authenticated',
      summary: 'Ask the AI pilot; answers text/event-stream: session, chunk, tool_request, tool_execution, error, stream_end',
      body: chatBody,
      query: chatQuery,
      produces: 'text/event-stream',
      events: chatEvents,
      errors: [404],
      handler: async (context, { body, query }) => {
        const principal = principalOf(context);
        // An unknown cluster is a 404 before a session is opened or anything is streamed.
        const cluster = chatCluster(clusters, askedCluster(query, body));
        const auditFields = requestAuditFields(context);
        // A used-up daily budget is a 429 BUDGET_EXCEEDED before a session is opened or the model is called.
        await refuseOverBudget(deps, { principal, auditFields, cluster, sessionId: body.session_id });
        const session = await chat.openSession(principal, body.session_id, body.message);
        const chatContext = {
          namespace: body.context.namespace || undefined,
          resource: body.context.resource || undefined,
          cluster,
          range: body.context.range,
          ...(body.context.finding ? { finding: body.context.finding } : {}),
        };
        deps.audit.record({
          ...auditFields,
          action: 'query',
          resource: `chat/${session.id}`,
          cluster,
          details: { message: body.message.slice(0, 500), namespace: chatContext.namespace, resource: chatContext.resource, finding: chatContext.finding },
          decision: 'allow',
          outcome: 'success',
        });
        const stream = startEventStream(context);
        const emit: EmitEvent = (event) => stream.send(event.event, event.data);
        emit({ event: 'session', data: { session_id: session.id } });
        const stopHeartbeat = startHeartbeat(stream, deps.config.server.sse_heartbeat);
        const settings = userSettings.get(principal.username);
        const turn = chat.runTurn(session.id, {
          principal,
          message: body.message,
          context: chatContext,
          clusters,
          emit,
          signal: stream.signal,
          auditFields,
          settings: { language: settings.language, beginnerMode: settings.beginner_mode, autoApproveReadonly: settings.auto_approve_readonly },
        });
        void turn
          .catch((error: unknown) => deps.logger.error({ err: error }, 'chat turn failed outside the loop'))
          .finally(() => {
            stopHeartbeat();
            stream.end();
          });
      },
    }),
    route({
      method: 'GET',
      path: '/api/chat/history',
      permission: 'authenticated',
      summary: "With session_id: the session's messages, tool calls, decisions and results; without: the caller's sessions",
      query: sessionQuery,
      response: z.union([chatHistory, listOf(chatSessionSummary)]).meta({ id: 'ChatHistoryAnswer' }),
      errors: [404],
      handler: async (context, { query: { session_id: sessionId } }) => {
        const principal = principalOf(context);
        if (sessionId !== undefined) {
          context.body = await chat.history(principal, sessionId);
          return;
        }
        context.body = listed(await chat.listSessions(principal));
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/chat/history',
      permission: 'authenticated',
      summary: 'Delete one of the caller’s chat sessions with its history',
      query: requiredSessionQuery,
      response: deleted,
      errors: [404],
      handler: async (context, { query: { session_id: sessionId } }) => {
        await chat.deleteSession(principalOf(context), sessionId);
        context.body = { deleted: sessionId };
      },
    }),
  ];
}
