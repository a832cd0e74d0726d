import type { McpServerConfig } from '../../config/schema.js';
import type { CustomClient } from '../../kube/custom-client.js';
import type { McpServerObject } from '../../crds/mcp-server.js';
import { AppError, notFound, validation } from '../../errors.js';
import type { McpClientManager } from '../client/client-manager.js';
import type { ConfigFileServers } from './config-file-servers.js';
import { maskedValue, recordOfObject, recordOfView, type ServerRecord } from './server-record.js';

export interface ServerCatalogOptions {
  manager: McpClientManager;
  /** MCPServer objects in the Pilothouse namespace. */
  objects: CustomClient<McpServerObject>;
  /** The per-user config file, when the service has one. */
  configFile?: ConfigFileServers;
}

/**
 * What the MCP servers API reads and changes. New servers become MCPServer objects when the CRDs
 * are installed, otherwise entries of the config file; existing servers change where they live.
 * Changes also apply to the client manager at once (the reconciler converges to the same state).
 */
export class ServerCatalog {
  constructor(private readonly options: ServerCatalogOptions) {}

  /** Every server: those the manager runs, plus MCPServer objects it does not (e.g. name clashes). */
  async list(): Promise<ServerRecord[]> {
    const objects = (await this.clusterObjects()) ?? [];
    const running = this.options.manager.list().map(recordOfView);
    const extra = objects.filter((object) => !running.some((shown) => shown.name === object.metadata.name && shown.source === 'cluster'));
    return [...running, ...extra.map(recordOfObject)].sort((left, right) => left.name.localeCompare(right.name) || left.source.localeCompare(right.source));
  }

  async create(server: McpServerConfig): Promise<ServerRecord> {
    const objects = await this.clusterObjects();
    const taken = this.options.manager.get(server.name) ?? objects?.find((object) => object.metadata.name === server.name);
    if (taken) throw validation(`MCP server "${server.name}" already exists`, { name: server.name });
    const { name, ...spec } = server;
    if (objects) await this.options.objects.create(name, spec, { 'app.kubernetes.io/managed-by': 'pilothouse' });
    else this.options.configFile?.add(server);
    await this.options.manager.apply({ ...server, source: objects ? 'cluster' : 'config' });
    return this.find(name);
  }

  /** Replaces a server's configuration where it lives; env values sent back masked keep their stored value. */
  async update(server: McpServerConfig): Promise<ServerRecord> {
    const source = await this.sourceOf(server.name);
    const stored = await this.storedEnv(server.name, source);
    const env = Object.fromEntries(Object.entries(server.env).map(([key, value]) => [key, value === maskedValue ? (stored[key] ?? '') : value]));
    const next = { ...server, env };
    if (source === 'cluster') {
      const { name, ...spec } = next;
      // A merge patch keeps map keys it does not name: removed env names are sent as null.
      const removed = Object.fromEntries(
        Object.keys(stored)
          .filter((key) => !(key in env))
          .map((key) => [key, null]),
      );
      const object = await this.options.objects.patch(name, { spec: { ...spec, env: { ...removed, ...env } } });
      await this.options.manager.apply({ name, ...object.spec, source });
    } else {
      this.options.configFile?.remove(server.name);
      this.options.configFile?.add(next);
      await this.options.manager.apply({ ...next, source });
    }
    return this.find(server.name);
  }

  private async storedEnv(name: string, source: 'config' | 'cluster'): Promise<Record<string, string>> {
    if (source === 'config') return this.options.manager.get(name)?.definition.env ?? {};
    const object = (await this.clusterObjects())?.find((item) => item.metadata.name === name);
    return object?.spec.env ?? {};
  }

  async setEnabled(name: string, enabled: boolean): Promise<ServerRecord> {
    const source = await this.sourceOf(name);
    if (source === 'cluster') {
      const object = await this.options.objects.patch(name, { spec: { enabled } });
      await this.options.manager.apply({ name, ...object.spec, source });
    } else {
      const view = this.options.manager.get(name)!;
      this.options.configFile?.setEnabled(name, enabled);
      await this.options.manager.apply({ ...view.definition, enabled });
    }
    return this.find(name);
  }

  async delete(name: string): Promise<void> {
    const source = await this.sourceOf(name);
    if (source === 'cluster') await this.options.objects.delete(name);
    else this.options.configFile?.remove(name);
    await this.options.manager.remove(name, source);
  }

  /** One server's record; NOT_FOUND when unknown. */
  async find(name: string): Promise<ServerRecord> {
    const found = (await this.list()).find((shown) => shown.name === name);
    if (!found) throw notFound(`MCP server "${name}" not found`, { name });
    return found;
  }

  /** Where a server lives: the manager's config-file servers first, then MCPServer objects. */
  private async sourceOf(name: string): Promise<'config' | 'cluster'> {
    if (this.options.manager.get(name)?.definition.source === 'config') return 'config';
    const object = (await this.clusterObjects())?.find((item) => item.metadata.name === name);
    if (!object) throw notFound(`MCP server "${name}" not found`, { name });
    return 'cluster';
  }

  /** The MCPServer objects, or undefined when the CRD is not installed. */
  private async clusterObjects(): Promise<McpServerObject[] | undefined> {
    try {
      return (await this.options.objects.list()).items;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    }
  }
}
