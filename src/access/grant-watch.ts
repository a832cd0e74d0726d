import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { CustomClient } from '../kube/custom-client.js';
import type { AccessRequest } from '../crds/access-request.js';
import type { GrantIndex } from './grant-index.js';

/**
 * Keeps a GrantIndex in sync with a list+watch of AccessRequest objects. Runs on every replica
 * (not only the leader), since every replica answers grant checks; relists after a failed watch.
 */
export class GrantWatch {
  private abort?: AbortController;

  constructor(
    private readonly client: CustomClient<AccessRequest>,
    private readonly index: GrantIndex,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.stop();
    this.abort = new AbortController();
    void this.run(this.abort.signal);
  }

  stop(): void {
    this.abort?.abort();
  }

  private async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        await this.listAndWatch(signal);
        failures = 0;
      } catch (error) {
        if (signal.aborted) return;
        failures += 1;
        this.logger.debug({ err: String(error), failures }, 'access request watch failed');
        await delay(Math.min(30_000, 500 * 2 ** failures), undefined, { signal }).catch(() => undefined);
      }
    }
  }

  /** One list, then watch events until the watch ends (an ERROR event ends it early). */
  private async listAndWatch(signal: AbortSignal): Promise<void> {
    const { items, resourceVersion } = await this.client.list();
    this.index.replace(items);
    for await (const event of this.client.watch(resourceVersion, signal)) {
      if (event.type === 'ERROR') return;
      this.index.apply(event);
    }
  }
}
