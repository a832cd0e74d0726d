import { randomUUID } from 'node:crypto';

/** What a client's `X-Request-Id` may look like to be kept: a short token of safe characters. */
const acceptedRequestId = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The id of a request: the client's `X-Request-Id` when it is a short token of safe characters
 * (so it can be echoed, logged and audited as is), otherwise a new UUID.
 */
export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && acceptedRequestId.test(header) ? header : randomUUID();
}
