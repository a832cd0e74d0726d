import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { execInPod } from '../../kube/pods/exec.js';
import { logLines, openLogStream, type LogOptions } from '../../kube/pods/logs.js';
import { getPod, resolveContainer } from '../../kube/pods/pod-target.js';
import { bridgeTerminal, defaultShellCommand, openPodTerminal } from '../../kube/pods/terminal-session.js';
import { audited, type AuditContextDeps } from '../audit-context.js';
import { auditedRead } from '../audit-reads.js';
import { startEventStream, startStream, wantsEventStream } from '../event-stream.js';
import { namespaceSchema, objectNameSchema, parseWith, queryBoolean, queryInteger } from '../schemas/validate.js';
import { kubeOf, scopeOf } from '../request-state.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import type { WebSocketUpgrades } from '../pipeline/websocket-upgrade.js';
import type { Config } from '../../config/schema.js';
import type { TerminalTickets } from '../terminal-tickets.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface PodsRouteDeps extends AuditContextDeps {
  config: Config;
  terminalTickets: TerminalTickets;
  webSockets: WebSocketUpgrades;
}

const podParams = z.object({ name: objectNameSchema });
const containerSchema = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a container name')
  .max(63);

const logQuery = z.object({
  namespace: namespaceSchema.default('default'),
  container: containerSchema.optional(),
  tail: queryInteger.pipe(z.number().int().min(-1)).default(100),
  follow: queryBoolean.default(false),
  previous: queryBoolean.default(false),
  sinceSeconds: queryInteger.pipe(z.number().int().positive()).optional(),
  timestamps: queryBoolean.default(false),
});

const execBody = z
  .object({
    namespace: namespaceSchema,
    container: containerSchema.optional(),
    command: z
      .array(z.string().max(32 * 1024))
      .min(1)
      .max(256),
  })
  .meta({ id: 'PodExecBody' });

const ticketBody = z.object({ namespace: namespaceSchema.default('default'), container: containerSchema.optional() }).meta({ id: 'TerminalTicketBody' });
const execResult = z
  .object({
    stdout: z.string(),
    stderr: z.string(),
    exitCode: z.number().int().nullable(),
    truncated: z.boolean().optional(),
    timedOut: z.boolean().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'ExecResult' });
const logEvents = { line: z.object({ line: z.string() }), end: z.object({ reason: z.string() }), error: z.object({ error: z.string(), code: z.string() }) };

const terminalQuery = z.object({
  namespace: namespaceSchema.default('default'),
  container: containerSchema.optional(),
  shell: z
    .string()
    .regex(/^\/[A-Za-z0-9_./-]+$/, 'must be an absolute program path such as /bin/bash')
    .optional(),
});

/** `kubectl exec` as the audit records it (argv shown space-joined). */
function execLine(target: { namespace: string; pod: string; container: string; command: string[] }, interactive = false): string {
  return `kubectl exec ${interactive ? '-it ' : ''}${target.pod} -n ${target.namespace} -c ${target.container} -- ${target.command.join(' ')}`;
}

/** `kubectl logs` as the audit records it. */
function logsLine(options: LogOptions): string {
  const flags = [
    `-n ${options.namespace}`,
    options.container ? `-c ${options.container}` : '',
    `--tail=${options.tail}`,
    options.follow ? '-f' : '',
    options.previous ? '--previous' : '',
  ];
  return `kubectl logs ${options.pod} ${flags.filter(Boolean).join(' ')}`;
}

async function sendLogs(deps: PodsRouteDeps, context: AppContext): Promise<void> {
  const { name } = parseWith(podParams, context.params, 'path');
  const query = parseWith(logQuery, context.query, 'query');
  const options: LogOptions = { ...query, pod: name };
  const abort = new AbortController();
  context.res.once('close', () => abort.abort());
  const read = { resource: `pod/${name}`, command: logsLine(options), sensitive: true };
  const { response } = await auditedRead(deps, context, read, () => openLogStream(kubeOf(context), options, abort.signal));
  if (wantsEventStream(context)) return streamEvents(context, response, abort);
  // Through startStream, so a followed log ends with the caller's session (ADR 0027).
  startStream(context, 'text/plain; charset=utf-8').pipeFrom(Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>));
}

function streamEvents(context: AppContext, response: Awaited<ReturnType<typeof openLogStream>>['response'], abort: AbortController): void {
  const stream = startEventStream(context);
  const pump = async (): Promise<void> => {
    try {
      for await (const line of logLines(response)) stream.send('line', { line });
      stream.send('end', { reason: 'log ended' });
    } catch (error) {
      if (!abort.signal.aborted) stream.send('error', { error: error instanceof Error ? error.message : String(error), code: 'K8S_ERROR' });
    } finally {
      stream.end();
    }
  };
  void pump();
}

async function openTerminal(deps: PodsRouteDeps, context: AppContext): Promise<void> {
  const { name } = parseWith(podParams, context.params, 'path');
  const query = parseWith(terminalQuery, context.query, 'query');
  const ticket = deps.webSockets.ticketOf(context);
  // A ticket opens the terminal of exactly the cluster, pod and container it was issued for.
  const asked = query.container ?? ticket?.container;
  if (ticket && ticket.cluster !== scopeOf(context).name) {
    throw new AppError('FORBIDDEN', 'this terminal ticket was issued for another cluster', { reason: 'ticket_mismatch' });
  }
  if (ticket && (ticket.pod !== name || ticket.namespace !== query.namespace || ticket.container !== asked)) {
    throw new AppError('FORBIDDEN', 'this terminal ticket was issued for another pod or container', { reason: 'ticket_mismatch' });
  }
  const client = kubeOf(context);
  const container = resolveContainer(await getPod(client, query.namespace, name), asked);
  const command = query.shell ? [query.shell] : defaultShellCommand;
  const podSocket = await audited(
    deps,
    context,
    { resource: `pod/${name}`, command: execLine({ namespace: query.namespace, pod: name, container, command }, true) },
    () => openPodTerminal(client, { namespace: query.namespace, pod: name, container, command }),
  );
  const browser = await deps.webSockets.accept(context);
  bridgeTerminal(browser, podSocket);
}

/** Pods: logs (plain, chunked or SSE), exec, web terminal (WebSocket) and its tickets. */
export function podRoutes(deps: PodsRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/pods/:name/logs',
      permission: 'view_logs',
      cluster: true,
      resourceKind: 'pods',
      subresource: 'log',
      defaultNamespace: 'default',
      summary: 'Container log: text/plain; follow=true streams (chunked, or SSE with Accept: text/event-stream: events line, end, error)',
      params: podParams,
      query: logQuery,
      produces: 'text/plain',
      events: logEvents,
      handler: (context) => sendLogs(deps, context),
    }),
    route({
      method: 'POST',
      path: '/api/pods/:name/exec',
      permission: 'execute_write',
      cluster: true,
      resourceKind: 'pods',
      subresource: 'exec',
      summary: 'Run an argv command in a container: {stdout, stderr, exitCode, truncated?, timedOut?}',
      params: podParams,
      body: execBody,
      response: execResult,
      handler: async (context, { params: { name }, body }) => {
        const client = kubeOf(context);
        const limits = { outputLimit: deps.config.limits.exec_output_limit, timeoutMs: deps.config.limits.exec_timeout };
        const container = resolveContainer(await getPod(client, body.namespace, name), body.container);
        const line = execLine({ namespace: body.namespace, pod: name, container, command: body.command });
        const result = await audited(deps, context, { resource: `pod/${name}`, command: line }, () =>
          execInPod(client, { ...body, container, pod: name }, limits),
        );
        context.body = result;
      },
    }),
    route({
      method: 'POST',
      path: '/api/pods/:name/terminal/ticket',
      permission: 'execute_write',
      cluster: true,
      resourceKind: 'pods',
      subresource: 'exec',
      defaultNamespace: 'default',
      summary:
        'One-time ticket (30 s) for the terminal WebSocket of one pod and container of ?cluster= (the socket must name the same cluster) {namespace, container?}: {ticket, expiresAt, container}',
      params: podParams,
      body: ticketBody,
      status: 201,
      response: z.object({ ticket: z.string(), expiresAt: z.string(), container: z.string() }).meta({ id: 'TerminalTicket' }),
      handler: async (context, { params: { name }, body }) => {
        const container = resolveContainer(await getPod(kubeOf(context), body.namespace, name), body.container);
        const authorization = context.get('Authorization') || undefined;
        const cluster = scopeOf(context).name;
        context.status = 201;
        context.body = { ...(await deps.terminalTickets.issue({ authorization, cluster, namespace: body.namespace, pod: name, container })), container };
      },
    }),
    route({
      method: 'GET',
      path: '/api/pods/:name/terminal',
      permission: 'execute_write',
      cluster: true,
      resourceKind: 'pods',
      subresource: 'exec',
      defaultNamespace: 'default',
      summary: 'Web terminal (WebSocket; JSON frames input/resize → output/error/exit)',
      status: 101,
      params: podParams,
      query: terminalQuery,
      handler: (context) => openTerminal(deps, context),
    }),
  ];
}
