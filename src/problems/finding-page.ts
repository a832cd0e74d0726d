import { validation } from '../errors.js';
import { compareFindings } from './finding-filter.js';
import type { Finding } from './finding.js';

/** One page of findings, with a `continue` cursor when more follow. */
export interface FindingPage {
  items: Finding[];
  total: number;
  continue?: string;
}

function decodeCursor(token: string): Finding {
  try {
    const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(cursor) && cursor.length === 5 && cursor.every((part) => typeof part === 'string')) {
      const [severity, namespace, kind, name, id] = cursor as string[];
      return { severity, object: { kind, namespace: namespace || undefined, name }, id } as unknown as Finding;
    }
  } catch {
    // refused below
  }
  throw validation('continue: not a token this list gave out', { fields: { continue: 'not a token this list gave out' } });
}

function encodeCursor(finding: Finding): string {
  const cursor = [finding.severity, finding.object.namespace ?? '', finding.object.kind, finding.object.name, finding.id];
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** The page `limit`/`continue` ask for of findings sorted by `compareFindings` (as the lists page: a cursor after the last item). */
export function pageOfFindings(sorted: Finding[], query: { limit?: number; continue?: string }): FindingPage {
  const after = query.continue ? decodeCursor(query.continue) : undefined;
  const start = after ? sorted.findIndex((finding) => compareFindings(finding, after) > 0) : 0;
  const from = start < 0 ? sorted.length : start;
  const end = query.limit ? Math.min(sorted.length, from + query.limit) : sorted.length;
  const items = sorted.slice(from, end);
  const last = items[items.length - 1];
  if (end >= sorted.length || !last) return { items, total: sorted.length };
  return { items, total: sorted.length, continue: encodeCursor(last) };
}
