import { describe, expect, it } from 'vitest';
import type { Principal } from '../../rbac/principal.js';
import { ApprovalRegistry } from './approvals.js';
import { ManualScheduler } from './scheduler.js';

const alice: Principal = { username: 'alice', role: 'user', roles: [] };
const bob: Principal = { username: 'bob', role: 'user', roles: [] };
const admin: Principal = { username: 'root', role: 'admin', roles: [] };

function setup(): { registry: ApprovalRegistry; scheduler: ManualScheduler } {
  const scheduler = new ManualScheduler();
  return { registry: new ApprovalRegistry(scheduler, 30_000), scheduler };
}

describe('approval registry', () => {
  it('resolves with the owner’s decision and forgets the timer', async () => {
    const { registry, scheduler } = setup();
    const waiting = registry.wait({ id: 'call-1', owner: 'alice', sessionId: 's1' });
    expect(registry.pendingIds()).toEqual(['call-1']);
    expect(registry.decide(alice, 'call-1', true)).toEqual({ id: 'call-1', owner: 'alice', sessionId: 's1' });
    await expect(waiting).resolves.toEqual({ outcome: 'approved', by: 'alice' });
    expect(scheduler.pending).toBe(0);
  });

  it('hands the decider the cluster the call goes to, and keeps it absent for a call that reaches none', async () => {
    const { registry } = setup();
    const onB = registry.wait({ id: 'call-b', owner: 'alice', sessionId: 's1', cluster: 'b' });
    const noCluster = registry.wait({ id: 'call-file', owner: 'alice', sessionId: 's1' });
    expect(registry.pendingRequest('call-b')).toEqual({ id: 'call-b', owner: 'alice', sessionId: 's1', cluster: 'b' });
    expect(registry.decide(admin, 'call-b', false)).toEqual({ id: 'call-b', owner: 'alice', sessionId: 's1', cluster: 'b' });
    expect(registry.decide(alice, 'call-file', true)).toEqual({ id: 'call-file', owner: 'alice', sessionId: 's1' });
    await expect(Promise.all([onB, noCluster])).resolves.toEqual([
      { outcome: 'rejected', by: 'root' },
      { outcome: 'approved', by: 'alice' },
    ]);
  });

  it('times out after the configured wait on the injected clock, not before', async () => {
    const { registry, scheduler } = setup();
    const waiting = registry.wait({ id: 'call-2', owner: 'alice', sessionId: 's1' });
    scheduler.advance(29_999);
    expect(registry.pendingIds()).toEqual(['call-2']);
    scheduler.advance(1);
    await expect(waiting).resolves.toEqual({ outcome: 'timeout' });
    expect(() => registry.decide(alice, 'call-2', true)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('lets an admin decide, hides the call from other users, refuses a second decision', async () => {
    const { registry } = setup();
    const waiting = registry.wait({ id: 'call-3', owner: 'alice', sessionId: 's1' });
    expect(() => registry.decide(bob, 'call-3', true)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    registry.decide(admin, 'call-3', false);
    await expect(waiting).resolves.toEqual({ outcome: 'rejected', by: 'root' });
    expect(() => registry.decide(alice, 'call-3', true)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => registry.decide(bob, 'call-3', true)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(() => registry.decide(alice, 'never-asked', true)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('ends as cancelled when the turn is aborted', async () => {
    const { registry, scheduler } = setup();
    const abort = new AbortController();
    const waiting = registry.wait({ id: 'call-4', owner: 'alice', sessionId: 's1' }, abort.signal);
    abort.abort();
    await expect(waiting).resolves.toEqual({ outcome: 'cancelled' });
    expect(registry.pendingIds()).toEqual([]);
    expect(scheduler.pending).toBe(0);
    await expect(registry.wait({ id: 'call-5', owner: 'alice', sessionId: 's1' }, abort.signal)).resolves.toEqual({ outcome: 'cancelled' });
  });
});
