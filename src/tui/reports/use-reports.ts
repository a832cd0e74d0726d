import { useEffect, useRef, useState } from 'react';
import type { ReportsApi, ReportStatus } from './reports-api.js';

const refreshMs = 5_000;

export interface ReportsState {
  /** Undefined until the first list arrives. */
  reports: ReportStatus[] | undefined;
  /** Reads the list again (after a request or a delete). */
  reload(): void;
}

/** A listed report, unless the stream already told more (a later progress, or the end). */
function fresher(listed: ReportStatus, known: ReportStatus | undefined): ReportStatus {
  if (!known || listed.status !== 'generating') return listed;
  if (known.status !== 'generating') return known;
  return known.progress > listed.progress ? known : listed;
}

/** Merges a newly read list with what the progress streams reported meanwhile. */
export function mergeReports(current: ReportStatus[] | undefined, listed: ReportStatus[]): ReportStatus[] {
  const known = new Map((current ?? []).map((report) => [report.id, report]));
  return listed.map((report) => fresher(report, known.get(report.id)));
}

/**
 * The caller's reports, re-read every few seconds; each report still generating is followed
 * through its progress stream (GET /api/reports/{id}/events), so its bar moves live.
 */
export function useReports(api: ReportsApi, onError: (error: unknown) => void): ReportsState {
  const [reports, setReports] = useState<ReportStatus[] | undefined>(undefined);
  const [round, setRound] = useState(0);
  const following = useRef(new Map<string, AbortController>());
  useEffect(() => {
    let stopped = false;
    const read = (): void => {
      api.list().then(
        (listed) => !stopped && setReports((current) => mergeReports(current, listed)),
        (error: unknown) => !stopped && onError(error),
      );
    };
    read();
    const timer = setInterval(read, refreshMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [round]);
  useEffect(() => {
    for (const report of reports ?? []) {
      if (report.status === 'generating' && !following.current.has(report.id)) follow(report.id, { api, following: following.current, setReports, onError });
    }
  }, [reports]);
  useEffect(() => () => following.current.forEach((controller) => controller.abort()), []);
  return { reports, reload: () => setRound((value) => value + 1) };
}

type SetReports = (update: (current: ReportStatus[] | undefined) => ReportStatus[] | undefined) => void;

interface Followers {
  api: ReportsApi;
  following: Map<string, AbortController>;
  setReports: SetReports;
  onError(error: unknown): void;
}

function follow(id: string, { api, following, setReports, onError }: Followers): void {
  const controller = new AbortController();
  following.set(id, controller);
  void (async () => {
    for await (const event of api.events(id, controller.signal)) {
      if (event.kind === 'deleted') setReports((current) => current?.filter((report) => report.id !== id));
      else setReports((current) => current?.map((report) => (report.id === id ? { ...report, ...event.report } : report)));
    }
  })()
    .catch((error: unknown) => {
      if (!controller.signal.aborted) onError(error);
    })
    .finally(() => following.delete(id));
}
