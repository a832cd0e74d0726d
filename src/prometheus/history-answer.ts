import { z } from 'zod';

/** One named series of a history answer: its unit and its points `[Unix seconds, value]`. */
export const historySeries = z
  .object({ name: z.string(), unit: z.enum(['cores', 'bytes', 'bytes/s', 'count']), points: z.array(z.tuple([z.number(), z.number()])) })
  .meta({ id: 'HistorySeries' });

/** GET /api/metrics/history: the object's named series over the window, from Prometheus or the in-memory history. */
export const historyAnswer = z
  .object({
    kind: z.string(),
    namespace: z.string().optional(),
    name: z.string(),
    /** `prometheus`, or `memory`: this replica's short history sampled from metrics-server. */
    source: z.enum(['prometheus', 'memory']),
    start: z.number(),
    end: z.number(),
    step: z.number(),
    series: z.array(historySeries),
  })
  .meta({ id: 'HistoryAnswer' });
export type HistoryAnswer = z.infer<typeof historyAnswer>;
export type HistorySeriesAnswer = z.infer<typeof historySeries>;
