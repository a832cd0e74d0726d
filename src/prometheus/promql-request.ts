import { z } from 'zod';
import { parseDuration } from '../config/duration.js';
import { validation } from '../errors.js';

/** A time as Prometheus takes it: RFC 3339 or Unix seconds (a number or its text). */
const timeSchema = z.union([z.number(), z.string().min(1)]);
/** A step: seconds (a number) or a duration (`30s`, `5m`). */
const stepSchema = z.union([z.number().positive(), z.string().min(1)]);

/**
 * POST /api/prometheus/query: `{query, time?}` (instant) or `{query, start, end, step}` (range), as Prometheus'
 * `/api/v1/query` and `/api/v1/query_range` take them.
 */
export const promqlBody = z
  .object({
    query: z.string().min(1).max(20_000),
    time: timeSchema.optional(),
    start: timeSchema.optional(),
    end: timeSchema.optional(),
    step: stepSchema.optional(),
  })
  .strict()
  .refine(
    (body) =>
      [body.start, body.end, body.step].every((field) => field === undefined) || [body.start, body.end, body.step].every((field) => field !== undefined),
    {
      message: 'a range query names start, end and step (an instant query none of them)',
    },
  )
  .refine((body) => body.time === undefined || body.start === undefined, { message: 'name time (instant) or start, end and step (range), not both' })
  .meta({ id: 'PromqlBody' });
export type PromqlBody = z.infer<typeof promqlBody>;

/** A query ready to send: its kind and times in Unix seconds. */
export type PromqlRequest = { query: string; time?: number } | { query: string; start: number; end: number; step: number };

/** The limits of one query (`prometheus.limits`, durations in ms). */
export interface PromqlLimits {
  max_points: number;
  max_series: number;
  max_range: number;
  min_step: number;
}

/** Unix seconds of an RFC 3339 time or of Unix seconds; refused (400) otherwise. */
export function secondsOf(value: number | string, field: string): number {
  const seconds = typeof value === 'number' ? value : /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : Date.parse(value) / 1000;
  if (!Number.isFinite(seconds)) throw validation(`${field} is not a time (RFC 3339 or Unix seconds)`, { fields: { [field]: 'not a time' } });
  return seconds;
}

function stepSeconds(value: number | string): number {
  const seconds = typeof value === 'number' ? value : /^\d+(\.\d+)?$/.test(value) ? Number(value) : (parseDuration(value) ?? Number.NaN) / 1000;
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw validation('step is not a positive duration (seconds or 30s, 5m)', { fields: { step: 'not a duration' } });
  return seconds;
}

/** The checked range of a range query: end after start, within the range, step and point limits. */
function checkedRange(start: number, end: number, step: number, limits: PromqlLimits): void {
  if (end < start) throw validation('end is before start', { fields: { end: 'before start' } });
  if ((end - start) * 1000 > limits.max_range)
    throw validation(`the range is longer than ${limits.max_range / 1000}s (prometheus.limits.max_range)`, {
      reason: 'range_too_long',
      max: limits.max_range / 1000,
    });
  if (step * 1000 < limits.min_step)
    throw validation(`step is shorter than ${limits.min_step / 1000}s (prometheus.limits.min_step)`, { reason: 'step_too_short', min: limits.min_step / 1000 });
  const points = Math.floor((end - start) / step) + 1;
  if (points > limits.max_points)
    throw validation(`the range and step make ${points} points per series, more than ${limits.max_points} (prometheus.limits.max_points): use a longer step`, {
      reason: 'too_many_points',
      points,
      max: limits.max_points,
    });
}

/** The body as a request to send, bounds checked (400 VALIDATION_ERROR with the limit in the details). */
export function promqlRequestOf(body: PromqlBody, limits: PromqlLimits): PromqlRequest {
  if (body.start === undefined || body.end === undefined || body.step === undefined)
    return body.time === undefined ? { query: body.query } : { query: body.query, time: secondsOf(body.time, 'time') };
  const [start, end, step] = [secondsOf(body.start, 'start'), secondsOf(body.end, 'end'), stepSeconds(body.step)];
  checkedRange(start, end, step, limits);
  return { query: body.query, start, end, step };
}

/** Refuses an answer with more series than the limit (the caller aggregates or narrows the query). */
export function checkSeries(result: unknown, limits: PromqlLimits): void {
  const count = Array.isArray(result) ? result.length : 1;
  if (count > limits.max_series)
    throw validation(
      `the query answered ${count} series, more than ${limits.max_series} (prometheus.limits.max_series): aggregate it (sum by …) or narrow it`,
      {
        reason: 'too_many_series',
        series: count,
        max: limits.max_series,
      },
    );
}
