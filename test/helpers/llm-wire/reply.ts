import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';

export type WireRequest = IncomingMessage | Http2ServerRequest;

/** The few response operations the wire server needs, over HTTP/1.1 or HTTP/2. */
export interface WireReply {
  isClosed(): boolean;
  writeHead(status: number, headers: Record<string, string>): void;
  write(data: string | Buffer): void;
  end(body?: string): void;
  /** Breaks the connection (HTTP/1.1) or resets the stream (HTTP/2) mid-response. */
  cut(): void;
}

function isHttp2(response: ServerResponse | Http2ServerResponse): response is Http2ServerResponse {
  return 'stream' in response;
}

export function toWireReply(response: ServerResponse | Http2ServerResponse): WireReply {
  if (isHttp2(response)) {
    return {
      isClosed: () => response.stream.destroyed || response.stream.closed,
      writeHead: (status, headers) => void response.writeHead(status, headers),
      write: (data) => void response.write(data),
      end: (body) => void (body === undefined ? response.end() : response.end(body)),
      cut: () => response.stream.close(constants.NGHTTP2_INTERNAL_ERROR),
    };
  }
  return {
    isClosed: () => response.destroyed,
    writeHead: (status, headers) => void response.writeHead(status, headers),
    write: (data) => void response.write(data),
    end: (body) => void (body === undefined ? response.end() : response.end(body)),
    cut: () => response.socket?.destroy(),
  };
}
