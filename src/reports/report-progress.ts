import type { Report } from '../crds/report.js';
import type { CustomClient } from '../kube/custom-client.js';

/** True once a report will not change any more. */
export function isFinished(report: Report): boolean {
  return report.status?.phase === 'completed' || report.status?.phase === 'failed';
}

/**
 * Follows one Report object until it is finished, deleted or `signal` aborts: yields its current
 * state, then every change (a watch on the object, restarted when the server ends it). Works on
 * every replica, as the object is the shared state. Yields undefined when the object is deleted.
 */
export async function* followReport(client: CustomClient<Report>, id: string, signal: AbortSignal): AsyncGenerator<Report | undefined> {
  while (!signal.aborted) {
    const current = await client.get(id);
    yield current;
    if (!current || isFinished(current)) return;
    for await (const event of client.watch(current.metadata.resourceVersion ?? '0', signal, id)) {
      if (event.type === 'BOOKMARK') continue;
      if (event.type === 'ERROR') break;
      if (event.type === 'DELETED') {
        yield undefined;
        return;
      }
      yield event.object;
      if (isFinished(event.object)) return;
    }
  }
}
