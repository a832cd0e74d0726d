const dayMs = 86_400_000;

/** The UTC day of a time, YYYY-MM-DD. */
export function utcDayOf(milliseconds: number): string {
  return new Date(milliseconds).toISOString().slice(0, 10);
}

/** The start of the next UTC day, as an ISO time (when a daily budget resets). */
export function nextUtcDayStart(milliseconds: number): string {
  return new Date((Math.floor(milliseconds / dayMs) + 1) * dayMs).toISOString();
}
