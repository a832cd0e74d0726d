import { countBySeverity, type Finding } from '../../problems/finding.js';
import { compareFindings, matchesFilter, type FindingFilter } from '../../problems/finding-filter.js';
import { pageOfFindings } from '../../problems/finding-page.js';
import { VisibilityCache, visibleFindings, type FindingViewer, type FindingVisibilityDeps } from '../../problems/visible-findings.js';
import type { FindingChange } from '../../problems/engine.js';
import type { ClusterScope } from '../../clusters/scope.js';
import { startEventStream, type EventStream } from '../event-stream.js';
import { problemEvents, problemPage, problemsQuery, problemsWatchQuery } from '../schemas/problem-schemas.js';
import { kubeOf, scopeOf } from '../request-state.js';
import { route, type AppContext, type RouteSpec } from '../types.js';

/** Keep-alive comments on the live stream, so proxies keep an idle stream open. */
const keepAliveMs = 15_000;

/** What visibility reads of a scope (our policy, the cluster's access sets). */
export function visibilityOf(scope: ClusterScope): FindingVisibilityDeps {
  return { policy: scope.policy, access: scope.caches.access };
}

function viewerOf(context: AppContext): FindingViewer {
  return { principal: context.state.principal, client: kubeOf(context) };
}

/** The findings of the request's cluster the caller may see (after the engine's first analysis; it starts with the scope). */
async function visible(context: AppContext): Promise<Finding[]> {
  const scope = scopeOf(context);
  await scope.problems.start();
  return visibleFindings(visibilityOf(scope), viewerOf(context), scope.problems.findings());
}

/** The filtered findings in order, and the counts by severity of the same filter without its severity. */
function answerOf(findings: Finding[], filter: FindingFilter): { items: Finding[]; counts: ReturnType<typeof countBySeverity> } {
  const unsevered = findings.filter((finding) => matchesFilter(finding, { ...filter, severity: undefined }));
  const counts = countBySeverity(unsevered.filter((finding) => !finding.ignored));
  return { items: unsevered.filter((finding) => !filter.severity || finding.severity === filter.severity).sort(compareFindings), counts };
}

/** Streams the caller's findings: a snapshot, then added/modified/deleted as they change; a fresh snapshot after an RBAC change. */
async function streamProblems(context: AppContext, filter: FindingFilter): Promise<void> {
  const scope = scopeOf(context);
  const engine = scope.problems;
  await engine.start();
  const viewer = viewerOf(context);
  const visibility = new VisibilityCache(visibilityOf(scope), viewer);
  const stream = startEventStream(context);
  const sent = new Set<string>();
  let queue: Promise<void> = Promise.resolve();
  const snapshot = async (): Promise<void> => {
    const { items, counts } = answerOf(await visibleFindings(visibilityOf(scope), viewer, engine.findings()), filter);
    sent.clear();
    for (const item of items) sent.add(item.id);
    stream.send('snapshot', { items, total: items.length, counts, revision: String(engine.revision) });
  };
  const changed = async (change: FindingChange): Promise<void> => {
    const shown = change.type !== 'deleted' && matchesFilter(change.finding, filter) && (await visibility.sees(change.finding));
    sendChange(stream, sent, { ...change, shown, revision: String(engine.revision) });
  };
  const enqueue = (work: () => Promise<void>): void => {
    queue = queue.then(work).catch(() => undefined);
  };
  enqueue(snapshot);
  const unsubscribe = engine.onChange((change) => enqueue(() => changed(change)));
  const stopRecheck = scope.caches.access.onChange(() => {
    visibility.clear();
    enqueue(snapshot);
  });
  const unstop = engine.onStop(() => {
    stream.send('error', { error: 'the cluster is being removed or the service is stopping', code: 'UNAVAILABLE', details: { reason: 'cache_stopped' } });
    stream.end();
  });
  const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), keepAliveMs);
  keepAlive.unref();
  stream.signal.addEventListener('abort', () => {
    clearInterval(keepAlive);
    unsubscribe();
    stopRecheck();
    unstop();
    stream.end();
  });
}

function sendChange(stream: EventStream, sent: Set<string>, change: FindingChange & { shown: boolean; revision: string }): void {
  const { shown, revision } = change;
  const id = change.finding.id;
  if (shown) {
    stream.send(sent.has(id) ? 'modified' : 'added', { item: change.finding, revision });
    sent.add(id);
  } else if (sent.delete(id)) stream.send('deleted', { item: change.finding, revision });
}

/** Problems: every cluster's findings (src/problems), as the caller may see them. */
export function problemRoutes(): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/api/problems',
      permission: 'view',
      cluster: true,
      summary:
        "The cluster's findings the caller may see (objects they may list; deny roles hold), critical first; filters namespace, severity, kind, name; paged like the lists ({items, total, counts, continue?})",
      query: problemsQuery,
      response: problemPage,
      handler: async (context, { query }) => {
        const { items, counts } = answerOf(await visible(context), query);
        context.body = { ...pageOfFindings(items, query), counts };
      },
    }),
    route({
      method: 'GET',
      path: '/api/problems/watch',
      permission: 'view',
      cluster: true,
      summary:
        'Live findings (SSE): a snapshot, then added/modified/deleted findings as the cluster changes; the same visibility and filters as GET /api/problems',
      query: problemsWatchQuery,
      produces: 'text/event-stream',
      events: problemEvents,
      handler: async (context, { query }) => {
        await streamProblems(context, query);
      },
    }),
  ];
}
