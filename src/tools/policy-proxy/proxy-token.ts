import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** A one-time bearer token for one proxy (256 random bits). */
export function newProxyToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function carriesToken(headers: IncomingHttpHeaders, token: string): boolean {
  const match = /^Bearer (\S+)$/i.exec(headers.authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1] as string), digest(token));
}
