import type { Clock } from '../../clock.js';
import type { Principal } from '../../rbac/principal.js';

/** Why a stream's session no longer speaks for its caller (the same reasons a request's 401 gives). */
export interface StreamEnd {
  /** `role_changed`: an admin (or the identity provider, at a sign-in) changed the user's role or roles since the stream opened. */
  reason: 'revoked' | 'expired' | 'locked' | 'disabled' | 'unknown_user' | 'unknown_session' | 'role_changed';
  message: string;
}

/** Whether the principal's session still holds: the time to look again, or why it ended. */
export type Liveness = { ended: StreamEnd } | { endsAt?: number };

/** Answers whether a principal's session still holds (src/auth/sessions/sessions.ts). */
export interface LivenessSource {
  liveness(principal: Principal): Promise<Liveness>;
  /** Calls `listener` with a user name whenever sessions of that user are revoked here, or the user's role changes here. */
  onSessionsEnded(listener: (username: string) => void): void;
}

/** Ends one open stream (SSE: a final `error` event; WebSocket: close code 4401). */
export type EndStream = (ended: StreamEnd) => void;

interface OpenStream {
  principal: Principal;
  end: EndStream;
  timer?: NodeJS.Timeout;
}

/** setTimeout's ceiling; a later deadline is looked at again then. */
const maxTimerMs = 2_147_483_647;

/**
 * Every long-lived stream (SSE, chunked logs, WebSockets) registers here with the principal that
 * opened it, and ends when that principal's session ends or no longer speaks for its user: at once when a
 * session is revoked on this replica (logout, lock, disable, delete, password change, admin revocation) or the
 * user's role or roles change here (an admin's change, an SSO sign-in mapping another role), at the session's expiry
 * (looked at again then: a refreshed session keeps its streams), and at the next sweep for anything
 * else (revocations and role changes on other replicas). One instance per service (ADR 0027).
 */
export class SessionStreams {
  private readonly open = new Set<OpenStream>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly source: LivenessSource,
    private readonly clock: Clock,
    sweepMs = 15_000,
  ) {
    source.onSessionsEnded((username) => setImmediate(() => this.recheck((principal) => principal.username === username)));
    this.sweeper = setInterval(() => this.recheck(() => true), sweepMs);
    this.sweeper.unref();
  }

  /** Registers a stream of `principal`; returns the function that unregisters it (call it when the stream closes). */
  register(principal: Principal, end: EndStream): () => void {
    const stream: OpenStream = { principal, end };
    this.open.add(stream);
    this.check(stream);
    return () => this.forget(stream);
  }

  /** How many streams are open (metrics, tests). */
  get size(): number {
    return this.open.size;
  }

  /** Looks again at the sessions of the open streams `which` selects. */
  recheck(which: (principal: Principal) => boolean): void {
    for (const stream of [...this.open]) if (which(stream.principal)) this.check(stream);
  }

  /** Stops the sweep (service shutdown); open streams are ended by the server closing. */
  stop(): void {
    clearInterval(this.sweeper);
    for (const stream of this.open) clearTimeout(stream.timer);
  }

  private check(stream: OpenStream): void {
    if (!this.open.has(stream)) return;
    // The store may be away (PostgreSQL down): the stream stays and the next sweep looks again.
    this.source.liveness(stream.principal).then(
      (liveness) => this.apply(stream, liveness),
      () => undefined,
    );
  }

  private apply(stream: OpenStream, liveness: Liveness): void {
    if (!this.open.has(stream)) return;
    clearTimeout(stream.timer);
    if ('ended' in liveness) {
      this.forget(stream);
      stream.end(liveness.ended);
      return;
    }
    if (liveness.endsAt === undefined) return;
    stream.timer = setTimeout(() => this.check(stream), Math.min(Math.max(liveness.endsAt - this.clock(), 0) + 1, maxTimerMs));
    stream.timer.unref();
  }

  private forget(stream: OpenStream): void {
    clearTimeout(stream.timer);
    this.open.delete(stream);
  }
}
