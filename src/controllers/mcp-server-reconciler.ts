import type { Logger } from 'pino';
import type { McpServerObject } from '../crds/mcp-server.js';
import { NameClashError } from '../mcp/client/errors.js';
import type { ServerStatus } from '../mcp/client/server-definition.js';
import type { McpServers } from '../mcp/mcp-servers.js';
import { Controller } from './controller.js';
import type { ControllerManager } from './manager.js';
import { TerminalError, type Reconciler, type Result } from './reconciler.js';

type WrittenStatus = Record<string, string | number | string[] | null>;

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
 * changes requeue the object, so status follows connects, failures and restarts.
 */
export class McpServerReconciler implements Reconciler {
  readonly name = 'mcpserver';

  constructor(private readonly servers: McpServers) {}

  async reconcile(name: string): Promise<Result> {
    const object = await this.servers.objects.get(name);
    if (!object || object.metadata.deletionTimestamp) {
      await this.servers.manager.remove(name, 'cluster');
      return {};
    }
    try {
      await this.servers.manager.apply({ name, ...object.spec, source: 'cluster' });
    } catch (error) {
      if (!(error instanceof NameClashError)) throw error;
      const clash: ServerStatus = { phase: 'failed', tools: [], message: error.message, restarts: 0 };
      if (differs(object, statusPatch(clash))) await this.servers.objects.patchStatus(name, statusPatch(clash));
      throw new TerminalError(error.message);
    }
    const view = this.servers.manager.get(name);
    if (view && differs(object, statusPatch(view.status))) await this.servers.objects.patchStatus(name, statusPatch(view.status));
    return {};
  }
}

/** Registers the MCPServer controller; manager status changes of cluster servers requeue their object. */
export function registerMcpServerController(controllers: ControllerManager, servers: McpServers, logger: Logger): Controller<McpServerObject> {
  const controller = new Controller(servers.objects, new McpServerReconciler(servers), logger);
  servers.manager.onStatusChange((name) => {
    if (servers.manager.get(name)?.definition.source !== 'config') controller.queue.add(name);
  });
  controllers.register(controller);
  return controller;
}
