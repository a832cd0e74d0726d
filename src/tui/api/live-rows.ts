import { ApiError, serverEvents } from '@pilothouse/wire/wire-client';
import type { ApiClient } from './client.js';
import type { Row } from './types.js';

export interface LiveQuery {
  resource: string;
  namespace?: string;
  labelSelector?: string;
}

export interface LiveRowsListener {
  rows(rows: Row[]): void;
  error(error: unknown): void;
}

/** How often rows are polled when the server has no live list for them. */
const pollMs = 2_000;
/** Changes arriving together are handed on at most this often (one redraw per burst); large lists wait longer, so a
 * churning 10,000-row list redraws four times a second instead of twenty and keypresses stay quick. */
const batchMs = 50;
const largeListBatchMs = 250;
const largeList = 2_000;

const keyOf = (row: Row): string => `${row.namespace ?? ''}/${row.name}`;

/**
 * Live rows of one list: the SSE watch (`snapshot`, then `added`/`modified`/`deleted`) of
 * GET /api/k8s/{resource}/watch, or polling of the list where the server answers without one.
 */
export class LiveRows {
  private readonly rows = new Map<string, Row>();
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly client: ApiClient,
    private readonly query: LiveQuery,
    private readonly listener: LiveRowsListener,
  ) {}

  start(): void {
    void this.watch().catch((error: unknown) => {
      if (this.controller.signal.aborted) return;
      if (error instanceof ApiError && (error.status === 404 || error.status === 405) && error.code !== 'NOT_FOUND') void this.poll();
      else this.listener.error(error);
    });
  }

  stop(): void {
    this.controller.abort();
    clearTimeout(this.timer);
  }

  private get path(): string {
    return `/api/k8s/${encodeURIComponent(this.query.resource)}`;
  }

  private async watch(): Promise<void> {
    const response = await this.client.stream(
      `${this.path}/watch`,
      { namespace: this.query.namespace, labelSelector: this.query.labelSelector },
      this.controller.signal,
    );
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) throw new ApiError(405, { error: 'no live list', code: 'NO_WATCH' });
    for await (const event of serverEvents(response.body as unknown as AsyncIterable<Uint8Array>)) this.apply(event.event, event.data);
  }

  private apply(name: string, data: unknown): void {
    if (name === 'snapshot') {
      this.rows.clear();
      const receivedAt = Date.now();
      for (const row of (data as { items: Row[] }).items) this.rows.set(keyOf(row), { ...row, receivedAt });
    } else if (name === 'added' || name === 'modified') {
      const row = (data as { item: Row }).item;
      this.rows.set(keyOf(row), { ...row, receivedAt: Date.now() });
    } else if (name === 'deleted') {
      this.rows.delete(keyOf((data as { item: Row }).item));
    } else return;
    this.schedule(name === 'snapshot' ? 0 : this.rows.size > largeList ? largeListBatchMs : batchMs);
  }

  private schedule(delay: number): void {
    if (this.timer && delay > 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.listener.rows([...this.rows.values()]);
    }, delay);
  }

  private async poll(): Promise<void> {
    while (!this.controller.signal.aborted) {
      try {
        const { items } = await this.client.call('GET', '/api/k8s/{resource}', {
          path: { resource: this.query.resource },
          query: { namespace: this.query.namespace, labelSelector: this.query.labelSelector },
        });
        this.listener.rows(items);
      } catch (error) {
        this.listener.error(error);
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs).unref());
    }
  }
}
