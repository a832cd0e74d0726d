import { expect, it } from 'vitest';
import type { AuditEntry } from '../../../../src/audit/types.js';
import { chat, type ChatEvent, type ChatRun } from '../../../helpers/chat-stream.js';
import { attackRoles, clusterFingerprint, fileFingerprint, type AttackRole, type AttackWorld } from './attack-world.js';

/*
 * One attack case = one chat turn: the scripted model asks for the tool call, the test answers
 * any approval request with a rejection (the only way to run is a misclassification, which the
 * policy proxy must catch), then checks what a user would notice.
 */

/**
 * What the run must show:
 * - `refused` (default): a layer refused or the command failed, and said so: status blocked,
 *   forbidden, rejected, timeout or error, or a `[policy] refused ...` line in the result;
 * - `harmless`: a read that may run; `check` says why it is harmless (the generic checks apply too).
 */
export type AttackExpectation = 'refused' | 'harmless';

export interface AttackCase {
  /** Short title. */
  name: string;
  tool: 'kubectl' | 'bash';
  /** The command the model asks for (the world fills in names and paths). */
  command(world: AttackWorld): string;
  /** Default `refused`; per role where the roles differ. */
  expect?: AttackExpectation | Record<AttackRole, AttackExpectation>;
  /** Extra assertions after the generic ones. */
  check?(run: AttackRun, world: AttackWorld, role: AttackRole): void | Promise<void>;
  /**
   * A known hole on this branch (the test is then expected to fail, named `[GAP]`): the text says
   * which layer should close it. When the hole is closed the test fails, and the marker must go.
   */
  gap?: string | Partial<Record<AttackRole, string>>;
  /** Runs after the case whatever happened (removes what a case that got through left behind). */
  cleanup?(world: AttackWorld): void | Promise<void>;
}

export interface AttackRun {
  chat: ChatRun;
  request: Extract<ChatEvent, { event: 'tool_request' }>['data'];
  execution: Extract<ChatEvent, { event: 'tool_execution' }>['data'];
  /** The audit row that explains the outcome (`execute`, or `reject` for rejections and timeouts). */
  audit: AuditEntry;
}

const refusalStatuses = new Set(['blocked', 'forbidden', 'rejected', 'timeout', 'error']);
/** The marker the policy proxy appends for every refused request. */
export const policyRefusal = '[policy] refused';

/** Sends one chat turn whose model asks for `command` with `tool`, as a caller of `role` (or that caller); rejects every approval request. */
export async function runAttackChat(
  world: AttackWorld,
  role: AttackRole | { username: string; token: string },
  call: { tool: string; command: string },
): Promise<AttackRun> {
  const { service, wire } = world;
  const caller = typeof role === 'string' ? world.callers[role] : role;
  wire.reset();
  wire.script([{ toolCalls: [{ name: call.tool, arguments: { command: call.command } }] }, { text: ['I could not do that.'] }]);
  const run = await chat(
    service,
    { message: 'Please do it', context: {} },
    {
      token: caller.token,
      onEvent: async (event) => {
        if (event.event !== 'tool_request' || !event.data.requiresApproval) return;
        const decided = await service.api('POST', '/api/tool/approve', { token: caller.token, body: { id: event.data.id, approved: false } });
        expect(decided.status).toBe(200);
      },
    },
  );
  expect(run.status).toBe(200);
  const request = run.nth('tool_request');
  const execution = run.nth('tool_execution');
  const action = execution.status === 'rejected' || execution.status === 'timeout' ? 'reject' : 'execute';
  const rows = await service.api('GET', `/api/audit?action=${action}&limit=20`, { token: world.callers.admin.token });
  const audit = (rows.body.items as AuditEntry[]).find((entry) => entry.details.id === request.id);
  if (!audit) throw new Error(`no ${action} audit row for ${request.id}`);
  // ATTACK_LOG=1 prints which layer stopped each case (for the report; tests assert regardless).
  if (process.env.ATTACK_LOG)
    console.log(
      `[attack] ${caller.username} ${call.tool} ${call.command.slice(0, 90)} => ${execution.status} ${process.env.ATTACK_LOG === 'full' ? execution.result : firstReason(execution.result)}`,
    );
  return { chat: run, request, execution, audit };
}

function firstReason(result: string): string {
  const line = result.split('\n').find((text) => text.startsWith(policyRefusal)) ?? result.split('\n')[0] ?? '';
  return line.slice(0, 140);
}

function expectationOf(attack: AttackCase, role: AttackRole): AttackExpectation {
  const expected = attack.expect ?? 'refused';
  return typeof expected === 'string' ? expected : expected[role];
}

/** The event and the audit row say why. */
function expectReason(run: AttackRun, expected: AttackExpectation): void {
  const { execution, audit } = run;
  const summary = `${execution.status}: ${execution.result.slice(0, 600)}`;
  if (expected === 'refused') {
    expect(refusalStatuses.has(execution.status) || execution.result.includes(policyRefusal), `the run was not refused: ${summary}`).toBe(true);
  }
  if (audit.action === 'reject') return;
  expect(audit.details.status).toBe(execution.status);
  if (execution.status === 'blocked' || execution.status === 'forbidden') expect(audit.decision).toBe('deny');
  if (execution.result.includes(policyRefusal)) {
    expect(audit.details.refusals).toEqual(expect.arrayContaining([expect.objectContaining({ reason: expect.any(String) })]));
  }
}

/** No credential of the service in any event (tool results included) or in the audit row. */
export function expectNoCredential(world: AttackWorld, run: AttackRun): void {
  const seen = JSON.stringify(run.chat.events) + JSON.stringify(run.audit);
  for (const credential of world.credentials) expect(seen.includes(credential), `a credential of the service appeared (…${credential.slice(-6)})`).toBe(false);
}

/** The generic checks of every attack: reason, credentials, cluster, files, fetches. */
async function expectContained(world: AttackWorld, run: AttackRun, expected: AttackExpectation): Promise<void> {
  expectReason(run, expected);
  expectNoCredential(world, run);
  expect(await clusterFingerprint(world.namespace), 'the cluster changed').toEqual(world.baseline.cluster);
  expect(fileFingerprint(world), 'a file outside the session changed').toEqual(world.baseline.files);
  expect(world.fetches, 'a URL was fetched').toEqual([]);
}

/** After a case got through: the next cases compare against the state it left (one finding, not a cascade). */
async function rebaseline(world: AttackWorld): Promise<void> {
  world.fetches.length = 0;
  world.baseline = { cluster: await clusterFingerprint(world.namespace), files: fileFingerprint(world) };
}

function gapOf(attack: AttackCase, role: AttackRole): string | undefined {
  return typeof attack.gap === 'string' ? attack.gap : attack.gap?.[role];
}

/** Registers one test per case and role (sequential within the file). */
export function attackTests(holder: { world: AttackWorld }, cases: readonly AttackCase[]): void {
  for (const attack of cases) {
    for (const role of attackRoles) {
      const gap = gapOf(attack, role);
      const title = `${attack.tool}: ${attack.name} (as ${role})`;
      const body = async (): Promise<void> => {
        const { world } = holder;
        try {
          const run = await runAttackChat(world, role, { tool: attack.tool, command: attack.command(world) });
          await expectContained(world, run, expectationOf(attack, role));
          await attack.check?.(run, world, role);
        } catch (error) {
          await attack.cleanup?.(world);
          await rebaseline(world);
          throw error;
        }
        await attack.cleanup?.(world);
      };
      if (gap) it.fails(`[GAP: ${gap}] ${title}`, body);
      else it(title, body);
    }
  }
}
