import { useEffect } from 'react';
import { isAbort, readSse } from '@pilothouse/wire/wire-client';
import { useApi } from '../../shared/api-context';
import type { Report } from './report-types';

/** Follows `GET /api/reports/{id}/events` (SSE, data = the report's status) for every report still generating. */
export function useReportProgress(generating: readonly string[], onStatus: (report: Report) => void): void {
  const client = useApi();
  const ids = generating.join(',');
  useEffect(() => {
    if (!ids) return;
    const controller = new AbortController();
    for (const id of ids.split(',')) {
      const follow = async (): Promise<void> => {
        const response = await client.request('GET', `/api/reports/${encodeURIComponent(id)}/events`, {
          accept: 'text/event-stream',
          signal: controller.signal,
        });
        if (!response.body) return;
        await readSse(response.body, (event) => onStatus(JSON.parse(event.data) as Report), controller.signal);
      };
      follow().catch((error: unknown) => {
        if (!isAbort(error) && !controller.signal.aborted) console.warn(`report ${id}: progress stream ended`, error);
      });
    }
    return () => controller.abort();
    // onStatus is a state setter wrapper; the streams follow the set of generating ids
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, ids]);
}
