import type { ListAnswer } from '../kube/list-view/snapshots.js';
import type { AppContext } from './types.js';

/**
 * Writes a list answer of the list view (src/kube/list-view/): its weak ETag (`If-None-Match` → 304), and its
 * JSON as it is or compressed (br or gzip when accepted and the JSON is at least 1 KiB; each compression is
 * made once and kept with the answer).
 */
export function replyWithList(context: AppContext, answer: ListAnswer): void {
  context.set('ETag', answer.etag);
  context.set('Vary', 'Accept-Encoding, Authorization');
  context.set('Cache-Control', 'private, no-cache');
  const tags = (context.get('If-None-Match') ?? '').split(',').map((tag) => tag.trim());
  if (tags.includes(answer.etag) || tags.includes('*')) {
    context.status = 304;
    context.body = null;
    return;
  }
  context.type = 'application/json';
  const encoding = answer.json.length >= 1024 ? context.acceptsEncodings('br', 'gzip', 'identity') : 'identity';
  if (encoding !== 'br' && encoding !== 'gzip') {
    context.body = answer.json;
    return;
  }
  const body = answer.compressed(encoding);
  context.set('Content-Encoding', encoding);
  context.body = body;
}
