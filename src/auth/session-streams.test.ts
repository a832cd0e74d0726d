import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../store/database.js';
import { SessionsStore } from '../store/sessions-store.js';
import { SqliteClient } from '../store/sql-client.js';
import { UsersStore } from '../store/users-store.js';
import { SessionManager } from './sessions.js';
import { SessionStreams, type StreamEnd } from './session-streams.js';
import { TokenSigner } from './tokens.js';

// The real session manager over SQLite in a temp dir; time is real (expiry waits ~1 s).
let directory: string;
let database: Db;
let users: UsersStore;
let sessions: SessionManager;
let streams: SessionStreams;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'pilothouse-streams-'));
  database = openDatabase(directory);
  const store = new SqliteClient(database);
  users = new UsersStore(store, () => new Date().toISOString());
  const signer = new TokenSigner(new Uint8Array(32).fill(7), 2_000, Date.now);
  sessions = new SessionManager(users, new SessionsStore(store), signer, {
    durationMs: 2_000,
    maxSessionMs: 60_000,
    refreshWindowMs: 2_000,
    clock: Date.now,
  });
  streams = new SessionStreams(sessions, Date.now);
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
    const still = await Promise.race([kept.ended, new Promise((resolve) => setTimeout(() => resolve('open'), 100))]);
    expect(still).toBe('open');
  });

  it('a lock names itself', async () => {
    const locked = await openFor('locked');
    await users.update('locked', { locked: true });
    await sessions.revokeAll('locked');
    expect(await locked.ended).toMatchObject({ reason: 'locked', message: 'account locked' });
  });

  it('expiry ends a stream unless the session was refreshed', async () => {
    const expiring = await openFor('expiring');
    const started = Date.now();
    expect(await expiring.ended).toMatchObject({ reason: 'expired' });
    expect(Date.now() - started).toBeLessThan(3_500);

    const refreshed = await openFor('refreshed');
    // Token expiries are whole seconds: refresh in the next second, so the new token lasts longer.
    const nextSecond = Math.floor(Date.now() / 1000) * 1000 + 1_050;
    await new Promise((resolve) => setTimeout(resolve, nextSecond - Date.now()));
    await sessions.refresh(await sessions.principalFor(refreshed.token));
    const outcome = await Promise.race([refreshed.ended, new Promise((resolve) => setTimeout(() => resolve('open'), refreshed.expiresAt - Date.now() + 300))]);
    expect(outcome).toBe('open');
    expect(await refreshed.ended).toMatchObject({ reason: 'expired' });
  });

  it('unregistering forgets a stream', async () => {
    await users.insert({ username: 'brief', passwordHash: null, role: 'viewer', email: null, roles: [], enabled: true });
    const principal = await sessions.principalFor((await sessions.start((await users.find('brief'))!, {})).token);
    const release = streams.register(principal, () => undefined);
    release();
    expect(streams.size).toBe(0);
  });
});
