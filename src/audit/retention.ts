import type { Logger } from 'pino';

const day = 86_400_000;

/** A running pruning schedule. */
export interface RetentionSchedule {
  stop(): void;
}

/**
 * Prunes at start and then daily (`audit.retention_days`; no API deletes audit entries).
 * `prune` returns how many rows it removed.
 */
export function startRetention(prune: () => number | Promise<number>, what: string, logger: Logger, intervalMs = day): RetentionSchedule {
  const run = async (): Promise<void> => {
    try {
      const removed = await prune();
      if (removed > 0) logger.info({ removed, what }, 'pruned old entries');
    } catch (error) {
      logger.error({ err: error, what }, 'pruning failed');
    }
  };
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
