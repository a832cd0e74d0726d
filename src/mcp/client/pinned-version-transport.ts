import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The protocol revision the contract's client asks for. */
export const clientProtocolVersion = '2024-11-05';

/**
 * Wraps a transport so the SDK client's `initialize` request asks for a fixed protocol revision
 * (the SDK always offers its newest one). Every other message passes through untouched.
 */
export class PinnedVersionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly inner: Transport,
    private readonly protocolVersion = clientProtocolVersion,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const pinned =
      isJSONRPCRequest(message) && message.method === 'initialize'
        ? { ...message, params: { ...message.params, protocolVersion: this.protocolVersion } }
        : message;
    await this.inner.send(pinned, options);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
