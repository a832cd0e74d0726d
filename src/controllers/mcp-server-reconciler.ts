import type { McpServerObject } from '../crds/mcp-server.js';
import { commandRefusal } from '../mcp/catalog/command-policy.js';
import { NameClashError } from '../mcp/client/errors.js';
import type { ServerStatus } from '../mcp/client/server-definition.js';
import type { McpServers } from '../mcp/mcp-servers.js';
import type { Condition } from '../crds/common.js';
import { setCondition } from './conditions.js';
import { noEvents, type EventRecorder } from './events.js';
import { TerminalError, type Reconciler, type Result } from './reconciler.js';

type WrittenStatus = Record<string, string | number | string[] | null>;

const readyReasons: Record<ServerStatus['phase'], [Condition['status'], string]> = {
  connected: ['True', 'Connected'],
  connecting: ['Unknown', 'Connecting'],
  failed: ['False', 'Failed'],
  disabled: ['False', 'Disabled'],
};

/** The status to write: absent fields become null so the merge patch clears them. */
function statusPatch(status: ServerStatus): WrittenStatus {
  return { phase: status.phase, tools: status.tools, message: status.message ?? null, lastConnected: status.lastConnected ?? null, restarts: status.restarts };
}

function differs(object: McpServerObject, patch: WrittenStatus): boolean {
  const current = object.status ?? {};
  return Object.entries(patch).some(([key, value]) => JSON.stringify(current[key as keyof typeof current] ?? null) !== JSON.stringify(value));
}

/**
 * Level-based reconciler of MCPServer objects: connects enabled servers, disconnects disabled or
 * deleted ones, and writes `status` from the client manager's live state. The manager's status
 * changes requeue the object, so status follows connects, failures and restarts. It runs on every
 * replica (each connects, so a chat on any replica has the tools, ADR 0032); only the leader
 * (`leading`) writes status and records Events.
 */
export class McpServerReconciler implements Reconciler {
  readonly name = 'mcpserver';

  constructor(
    private readonly servers: McpServers,
    private readonly events: EventRecorder = noEvents,
    private readonly leading: () => boolean = () => true,
  ) {}

  async reconcile(name: string): Promise<Result> {
    const object = await this.servers.objects.get(name);
    if (!object || object.metadata.deletionTimestamp) {
      await this.servers.manager.remove(name, 'cluster');
      return {};
    }
    // The object runs a program on Pilothouse's host: only allow-listed commands ever start.
    const refusal = commandRefusal(object.spec.command, this.servers.commandPolicy);
    if (refusal) {
      await this.servers.manager.remove(name, 'cluster');
      return this.fail(object, `refused: ${refusal}`);
    }
    try {
      await this.servers.manager.apply({ name, ...object.spec, source: 'cluster' });
    } catch (error) {
      if (!(error instanceof NameClashError)) throw error;
      return this.fail(object, error.message);
    }
    const view = this.servers.manager.get(name);
    if (view) await this.write(object, view.status);
    return {};
  }

  /** Writes status `failed` with the reason and stops retrying this spec. */
  private async fail(object: McpServerObject, message: string): Promise<never> {
    await this.write(object, { phase: 'failed', tools: [], message, restarts: 0 });
    throw new TerminalError(message);
  }

  /** Writes the status and its `Ready` condition when either changed (the leader only); a transition also records an Event. */
  private async write(object: McpServerObject, status: ServerStatus): Promise<void> {
    if (!this.leading()) return;
    const [conditionStatus, reason] = readyReasons[status.phase];
    const message = status.message ?? (status.phase === 'connected' ? `${status.tools.length} tools` : status.phase);
    const update = setCondition(
      object.status?.conditions,
      { type: 'Ready', status: conditionStatus, reason, message },
      object.metadata.generation,
      new Date().toISOString(),
    );
    const patch = statusPatch(status);
    if (!update.changed && !differs(object, patch)) return;
    await this.servers.objects.patchStatus(object.metadata.name, { ...patch, conditions: update.conditions });
    if (!update.transition) return;
    const type = conditionStatus === 'False' && reason === 'Failed' ? 'Warning' : 'Normal';
    await this.events.record({ kind: 'MCPServer', metadata: object.metadata }, { type, reason, action: 'Reconcile', note: message });
  }
}
