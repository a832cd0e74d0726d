import { maxHeaderSize, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** The error body of a request line and headers past the header limit (the API's one error shape). */
function headersTooLarge(limit: number): string {
  const body = JSON.stringify({
    error: 'the request line and headers are too large',
    code: 'PAYLOAD_TOO_LARGE',
    details: { part: 'headers', limit },
  });
  return [
    'HTTP/1.1 431 Request Header Fields Too Large',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Requests Node's HTTP parser refuses before any route sees them: a request line (a long query
 * string) or headers past the header limit answer 431 with the API's error body, as the OpenAPI
 * document says of every operation; any other malformed request a bare 400, as Node does.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return void socket.destroy();
    if (error.code === 'HPE_HEADER_OVERFLOW') socket.end(headersTooLarge(maxHeaderSize));
    else socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
}
