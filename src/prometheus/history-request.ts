import { z } from 'zod';
import { parseDuration } from '../config/duration.js';
import { validation } from '../errors.js';
import { historyKinds, type HistoryKind } from './history-queries.js';

const minimumRangeMs = 15 * 60_000;
const maximumRangeMs = 14 * 86_400_000;
/** About this many points per series when the step is automatic. */
const targetPoints = 240;

const kubernetesName = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'must be a Kubernetes name')
  .max(253);

/** GET /api/metrics/history's query: the object, the range (15m..14d, default 1h) and an optional step. */
export const historyQuery = z.object({
  kind: z.enum(historyKinds),
  namespace: kubernetesName.optional(),
  name: kubernetesName,
  range: z.string().optional(),
  step: z.string().optional(),
});
export type HistoryQuery = z.infer<typeof historyQuery>;

/** A history request ready to answer: the object and the window in Unix seconds. */
export interface HistoryRequest {
  kind: HistoryKind;
  namespace: string;
  name: string;
  start: number;
  end: number;
  step: number;
  /** The rate window of counters (twice the step, at least a minute). */
  rateSeconds: number;
}

function durationOf(text: string, field: string): number {
  const milliseconds = parseDuration(text);
  if (milliseconds === undefined || milliseconds <= 0) throw validation(`${field} is not a duration (15m, 1h, 7d)`, { fields: { [field]: 'not a duration' } });
  return milliseconds;
}

/** The checked request at `now` (ms): the namespace required except for nodes, the range within 15m..14d. */
export function historyRequestOf(query: HistoryQuery, now: number): HistoryRequest {
  if (query.kind !== 'node' && !query.namespace) throw validation(`a ${query.kind}'s history needs its namespace`, { fields: { namespace: 'required' } });
  const rangeMs = query.range ? durationOf(query.range, 'range') : 3_600_000;
  if (rangeMs < minimumRangeMs || rangeMs > maximumRangeMs)
    throw validation('range must be between 15m and 14d', { fields: { range: 'between 15m and 14d' }, reason: 'range_out_of_bounds' });
  const automatic = Math.max(15, Math.ceil(rangeMs / 1000 / targetPoints));
  const step = query.step ? Math.max(1, Math.round(durationOf(query.step, 'step') / 1000)) : automatic;
  if (rangeMs / 1000 / step > 11_000) throw validation('step is too short for the range (at most 11000 points)', { reason: 'too_many_points' });
  const end = Math.floor(now / 1000);
  return {
    kind: query.kind,
    namespace: query.kind === 'node' ? '' : (query.namespace ?? ''),
    name: query.name,
    start: end - rangeMs / 1000,
    end,
    step,
    rateSeconds: Math.max(60, step * 2),
  };
}
