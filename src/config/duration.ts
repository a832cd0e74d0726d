import { z } from 'zod';

const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses durations like `30s`, `15m`, `1h`, `1h30m`, `500ms` into milliseconds; undefined when invalid. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(\d+(ms|s|m|h|d))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const match of trimmed.matchAll(/(\d+)(ms|s|m|h|d)/g)) {
    total += Number(match[1]) * (unitMs[match[2] ?? 's'] ?? 0);
  }
  return total;
}

/** A zod schema accepting a duration string (or a number of seconds) and yielding milliseconds. */
export const durationSchema = z.union([z.string(), z.number().nonnegative()]).transform((value, context) => {
  if (typeof value === 'number') return value * 1000;
  const parsed = parseDuration(value);
  if (parsed === undefined) {
    context.addIssue({ code: 'custom', message: `invalid duration "${value}" (use forms like 30s, 15m, 1h)` });
    return z.NEVER;
  }
  return parsed;
});
