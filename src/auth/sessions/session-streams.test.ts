import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../store/database.js';
import { SessionsStore } from '../../store/sessions-store.js';
import { SqliteClient } from '../../store/sql-client.js';
import { UsersStore } from '../../store/users-store.js';
import { SessionManager } from './sessions.js';
import { SessionStreams, type Liveness, type LivenessSource, type StreamEnd } from './session-streams.js';
import type { Principal } from '../../rbac/principal.js';
import { TokenSigner } from './tokens.js';

// The real session manager over SQLite in a temp dir; time is real (expiry waits ~2 s). The sweep is an hour
// away, so a stream that ends at its session's expiry was ended by its expiry timer. `skew` moves the
// services' clock ahead by hand where a test needs a later whole second.
let directory: string;
let database: Db;
let users: UsersStore;
let sessions: SessionManager;
let streams: SessionStreams;
let skew = 0;
const clock = (): number => Date.now() + skew;

interface Answer {
  username: string;
  liveness: Liveness;
}
let answerListeners: ((answer: Answer) => void)[] = [];

/** The session manager as the streams see it, telling the test each liveness answer it gave. */
function watchedSource(source: SessionManager): LivenessSource {
  return {
    onSessionsEnded: (listener) => source.onSessionsEnded(listener),
    async liveness(principal: Principal): Promise<Liveness> {
      const liveness = await source.liveness(principal);
      answerListeners.forEach((listener) => listener({ username: principal.username, liveness }));
      return liveness;
    },
  };
}

/** Resolves with the next liveness answer the streams get that `matches`. */
function nextAnswer(matches: (answer: Answer) => boolean): Promise<Answer> {
  return new Promise((resolve) => {
    const listener = (answer: Answer): void => {
      if (!matches(answer)) return;
      answerListeners = answerListeners.filter((other) => other !== listener);
      resolve(answer);
    };
    answerListeners.push(listener);
  });
}

/** Whether `promise` has settled (after the microtasks already queued ran). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([promise, Promise.resolve(pending)])) !== pending;
}

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'pilothouse-streams-'));
  database = openDatabase(directory);
  const store = new SqliteClient(database);
  users = new UsersStore(store, () => new Date().toISOString());
  skew = 0;
  answerListeners = [];
  const signer = new TokenSigner(new Uint8Array(32).fill(7), 2_000, clock);
  sessions = new SessionManager(users, new SessionsStore(store), signer, {
    durationMs: 2_000,
    maxSessionMs: 60_000,
    refreshWindowMs: 2_000,
    clock,
  });
  streams = new SessionStreams(watchedSource(sessions), clock, 3_600_000);
});

afterEach(() => {
  streams.stop();
  database.close();
  rmSync(directory, { recursive: true, force: true });
});

async function openFor(username: string): Promise<{ ended: Promise<StreamEnd>; token: string; expiresAt: number }> {
  await users.insert({ username, passwordHash: null, role: 'admin', email: null, roles: [], enabled: true });
  const started = await sessions.start((await users.find(username))!, {});
  const principal = await sessions.principalFor(started.token);
  const ended = new Promise<StreamEnd>((resolve) => streams.register(principal, resolve));
  return { ended, token: started.token, expiresAt: started.expiresAt };
}

describe('streams end with their session (ADR 0027)', () => {
  it('revocation ends the streams of that user only', async () => {
    const gone = await openFor('gone');
    const kept = await openFor('kept');
    expect(streams.size).toBe(2);
    await sessions.revokeAll('gone');
    expect(await gone.ended).toMatchObject({ reason: 'revoked' });
    expect(streams.size).toBe(1);
    // Look at every stream again: the other user's session is asked and still holds.
    const keptAnswer = nextAnswer((answer) => answer.username === 'kept');
    streams.recheck(() => true);
    expect((await keptAnswer).liveness).toEqual({ endsAt: kept.expiresAt });
    expect(await settled(kept.ended)).toBe(false);
    expect(streams.size).toBe(1);
  });

  it('a lock names itself', async () => {
    const locked = await openFor('locked');
    await users.update('locked', { locked: true });
    await sessions.revokeAll('locked');
    expect(await locked.ended).toMatchObject({ reason: 'locked', message: 'account locked' });
  });

  it('expiry ends a stream unless the session was refreshed', async () => {
    const expiring = await openFor('expiring');
    expect(await expiring.ended).toMatchObject({ reason: 'expired' });
    expect(streams.size).toBe(0);

    const refreshed = await openFor('refreshed');
    const principal = await sessions.principalFor(refreshed.token);
    // Token expiries are whole seconds: refresh as if one second later, so the new token lasts longer.
    skew = 1_000;
    const renewed = await sessions.refresh(principal);
    skew = 0;
    expect(renewed.expiresAt).toBe(refreshed.expiresAt + 1_000);
    // At the old expiry the stream looks again, finds the refreshed session and stays open.
    const atOldExpiry = await nextAnswer((answer) => answer.username === 'refreshed' && clock() >= refreshed.expiresAt);
    expect(atOldExpiry.liveness).toEqual({ endsAt: renewed.expiresAt });
    expect(await settled(refreshed.ended)).toBe(false);
    expect(streams.size).toBe(1);
    expect(await refreshed.ended).toMatchObject({ reason: 'expired' });
    expect(clock()).toBeGreaterThanOrEqual(renewed.expiresAt);
  });

  it('unregistering forgets a stream', async () => {
    await users.insert({ username: 'brief', passwordHash: null, role: 'viewer', email: null, roles: [], enabled: true });
    const principal = await sessions.principalFor((await sessions.start((await users.find('brief'))!, {})).token);
    const release = streams.register(principal, () => undefined);
    release();
    expect(streams.size).toBe(0);
  });
});
