/** A timestamp as local date and time (short). */
export function formatTime(value: string | number | undefined): string {
  if (value === undefined) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

/** Only the clock part (for "updated at"). */
export function formatClock(value: number | undefined): string {
  return value === undefined ? '' : new Date(value).toLocaleTimeString();
}
