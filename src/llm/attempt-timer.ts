/**
 * One attempt's abort signal: it aborts when the caller aborts, or when the
 * provider stays silent for `timeoutMs` (an idle timeout, re-armed on every chunk).
 */
export class AttemptTimer {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly forwardAbort = (): void => this.controller.abort(this.parent?.reason);

  constructor(
    private readonly timeoutMs: number,
    private readonly parent?: AbortSignal,
  ) {
    if (parent?.aborted) this.forwardAbort();
    parent?.addEventListener('abort', this.forwardAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Re-arms the idle timeout: the provider just sent something. */
  touch(): void {
    this.pause();
    if (this.timeoutMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException(`no response within ${this.timeoutMs} ms`, 'TimeoutError'));
    }, this.timeoutMs);
  }

  /** Stops the clock while the consumer holds an event. */
  pause(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.pause();
    this.parent?.removeEventListener('abort', this.forwardAbort);
  }
}
