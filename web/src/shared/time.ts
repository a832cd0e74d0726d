/** Go's time format, as helm prints it (`2026-11-26 07:59:58.123456789 +0000 UTC`), as RFC 3339; other values as they are. */
function rfc3339(value: string | number): string | number {
  const go = typeof value === 'string' ? /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d{1,3})?\d* ([+-]\d{2})(\d{2})(?: \w+)?$/.exec(value) : null;
  return go ? `${go[1]}T${go[2]}${go[3] ?? ''}${go[4]}:${go[5]}` : value;
}

/** A timestamp as local date and time (short). */
export function formatTime(value: string | number | undefined): string {
  if (value === undefined) return '';
  const date = new Date(rfc3339(value));
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

/** Only the clock part (for "updated at"). */
export function formatClock(value: number | undefined): string {
  return value === undefined ? '' : new Date(value).toLocaleTimeString();
}
