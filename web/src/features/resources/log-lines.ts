/** Followed logs keep at most this many characters (the oldest are dropped). */
export const maxLogChars = 512 * 1024;

/** Appends text, dropping the oldest characters past the cap. */
export function appendCapped(text: string, chunk: string): string {
  const joined = text + chunk;
  return joined.length > maxLogChars ? joined.slice(joined.length - maxLogChars) : joined;
}

/**
 * Splits streamed chunks of one container into whole lines prefixed with `[container] ` (for the
 * "all containers" view); a partial last line waits for the rest. `flush()` returns what is left.
 */
export function linePrefixer(container: string): { push: (chunk: string) => string; flush: () => string } {
  let pending = '';
  return {
    push: (chunk) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      return lines.map((line) => `[${container}] ${line}\n`).join('');
    },
    flush: () => {
      const rest = pending ? `[${container}] ${pending}\n` : '';
      pending = '';
      return rest;
    },
  };
}

/** The lines containing `search` (case-insensitive); all lines when it is empty. */
export function matchingLines(text: string, search: string): string {
  const wanted = search.trim().toLowerCase();
  if (!wanted) return text;
  return text
    .split('\n')
    .filter((line) => line.toLowerCase().includes(wanted))
    .join('\n');
}
