import type { McpServerConfig } from '../../config/schema.js';
import type { CustomClient } from '../../kube/custom-client.js';
import type { McpServerObject } from '../../crds/mcp-server.js';
import { AppError, notFound, validation } from '../../errors.js';
import type { McpClientManager } from '../client/client-manager.js';
import type { ConfigFileServers } from './config-file-servers.js';
import { recordOfObject, recordOfView, type ServerRecord } from './server-record.js';

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
