/**
 * Timestamps the way every report format shows them: `2026-11-26 07:59:58 UTC`, whatever precision or spelling the
 * source used (RFC 3339 from the API server with or without fractions, helm's `2026-11-26 07:59:58.123456789 +0000
 * UTC`). Anything else is returned unchanged.
 */
const timestamp = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?(?:\s+[A-Z]{2,5})?$/;

export function reportTime(text: string): string {
  const match = timestamp.exec(text.trim());
  if (!match) return text;
  const [, date = '', time = '', zone = 'Z'] = match;
  const offset = zone === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  const parsed = new Date(`${date}T${time.length === 5 ? `${time}:00` : time}${offset}`);
  if (Number.isNaN(parsed.getTime())) return text;
  return `${parsed.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
