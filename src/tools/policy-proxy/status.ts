import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** An API server error answer: a `Status` object, so kubectl prints the message as the server's own. */
export interface StatusAnswer {
  code: number;
  reason: 'BadRequest' | 'Forbidden' | 'Unauthorized' | 'ServiceUnavailable';
  message: string;
}

/** The `Status` JSON of an answer. */
export function statusJson(answer: StatusAnswer): string {
  return JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: answer.message,
    reason: answer.reason,
    code: answer.code,
  });
}

/** Answers a plain request with a `Status`. */
export function writeStatus(response: ServerResponse, answer: StatusAnswer): void {
  const body = statusJson(answer);
  response.writeHead(answer.code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

/** Answers an upgrade request (raw socket, no 101) with a `Status` and closes the socket. */
export function writeSocketStatus(socket: Duplex, answer: StatusAnswer): void {
  const body = statusJson(answer);
  const head = [
    `HTTP/1.1 ${answer.code} ${answer.reason}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
