import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { pipeline } from 'node:stream';
import { forwardedRequestHeaders, forwardedResponseHeaders } from './headers.js';
import type { RequestTarget } from './request-target.js';
import { maskedRequestHeaders, writeMaskedAnswer, type SecretMask } from './secret-responses.js';
import { writeStatus } from './status.js';
import { upstreamRequest } from './upstream-request.js';
import { upstreamUrl, type Upstream } from './upstream.js';

/**
 * Forwards one plain request to the API server and streams both bodies without buffering
 * (watches and `logs?follow=true` flow chunk by chunk). When the client goes away the upstream
 * request is destroyed; when the upstream fails before answering, the client gets a 503 Status.
 * With a `mask` (answers carrying secret values the caller may not see), answers are masked.
 */
export function forwardRequest(
  request: IncomingMessage,
  response: ServerResponse,
  target: RequestTarget,
  upstream: { upstream: Upstream; agent: HttpsAgent; mask?: SecretMask },
): void {
  const { mask } = upstream;
  const headers = forwardedRequestHeaders(request.headers, upstream.upstream.headers, false);
  const outgoing = upstreamRequest(upstream.upstream, upstreamUrl(upstream.upstream, target), {
    method: request.method ?? 'GET',
    headers: mask ? maskedRequestHeaders(headers) : headers,
    agent: upstream.agent,
  });
  outgoing.on('response', (answer) => {
    if (mask) return writeMaskedAnswer(answer, response, forwardedResponseHeaders(answer.headers), mask);
    response.writeHead(answer.statusCode ?? 502, forwardedResponseHeaders(answer.headers));
    response.flushHeaders();
    pipeline(answer, response, (error) => {
      if (error) outgoing.destroy();
    });
  });
  outgoing.on('error', () => {
    if (!response.headersSent) writeStatus(response, { code: 503, reason: 'ServiceUnavailable', message: 'the policy proxy could not reach the API server' });
    else response.destroy();
  });
  response.on('close', () => {
    if (!response.writableFinished) outgoing.destroy();
  });
  pipeline(request, outgoing, (error) => {
    if (error) outgoing.destroy();
  });
}
