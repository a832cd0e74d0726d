import { z } from 'zod';
import { mcpServerConfigSchema } from '../../config/schema.js';
import { audited, type AuditContextDeps } from '../audit-context.js';
import { deleted, listed, listOf } from '../schemas/api-schemas.js';
import { route, type RouteSpec } from '../types.js';
import type { McpServers } from '../../mcp/mcp-servers.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface McpRouteDeps extends AuditContextDeps {
  mcp: McpServers;
}

const createBody = mcpServerConfigSchema.strict().meta({ id: 'McpServerCreateBody' });
const patchBody = z.object({ enabled: z.boolean() }).strict().meta({ id: 'McpServerPatchBody' });
const replaceBody = mcpServerConfigSchema.omit({ name: true }).strict().meta({ id: 'McpServerReplaceBody' });
const nameParams = z.object({ name: mcpServerConfigSchema.shape.name });

/** One MCP server as the API shows it (env values masked). */
const mcpServer = z
  .object({
    name: z.string(),
    command: z.string(),
    args: z.array(z.string()),
    enabled: z.boolean(),
    description: z.string().optional(),
    env: z.record(z.string(), z.string()),
    source: z.enum(['config', 'cluster']),
    status: z
      .object({
        phase: z.enum(['connected', 'connecting', 'failed', 'disabled']),
        tools: z.array(z.string()),
        message: z.string().optional(),
        lastConnected: z.string().optional(),
        restarts: z.number().int(),
      })
      .meta({ id: 'McpServerStatus' }),
    tools: z.array(z.string()),
  })
  .meta({ id: 'McpServer' });

/**
 * MCP servers (docs/user-guide/mcp.md): list (env values masked, live status, tool names), add, enable/disable,
 * delete. Starting a server runs a command on the Pilothouse host: changes are admin only and
 * each is audited as `execute` (`mcp add|enable|disable|delete <name>`).
 */
export function mcpRoutes(deps: McpRouteDeps): RouteSpec[] {
  const catalog = deps.mcp.catalog;
  return [
    route({
      method: 'GET',
      path: '/api/mcp/servers',
      permission: 'view',
      summary: 'MCP servers: configuration (env values masked), live status and tool names',
      response: listOf(mcpServer),
      handler: async (context) => {
        context.body = listed(await catalog.list());
      },
    }),
    route({
      method: 'POST',
      path: '/api/mcp/servers',
      permission: 'admin',
      summary: 'Add an MCP server (an MCPServer object, or a config file entry without the CRDs)',
      body: createBody,
      status: 201,
      response: mcpServer,
      handler: async (context, { body: server }) => {
        const command = `mcp add ${server.name} -- ${[server.command, ...server.args].join(' ')}`;
        context.body = await audited(deps, context, { resource: `mcpserver/${server.name}`, command: command }, () => catalog.create(server));
        context.status = 201;
      },
    }),
    route({
      method: 'PATCH',
      path: '/api/mcp/servers/:name',
      permission: 'admin',
      summary: 'Enable or disable an MCP server (connects or disconnects now)',
      params: nameParams,
      body: patchBody,
      response: mcpServer,
      handler: async (context, { params: { name }, body: { enabled } }) => {
        const command = `mcp ${enabled ? 'enable' : 'disable'} ${name}`;
        context.body = await audited(deps, context, { resource: `mcpserver/${name}`, command: command }, () => catalog.setEnabled(name, enabled));
      },
    }),
    route({
      method: 'PUT',
      path: '/api/mcp/servers/:name',
      permission: 'admin',
      summary: 'Edit an MCP server: its whole configuration (env values sent back as "********" keep the stored value); it reconnects',
      params: nameParams,
      body: replaceBody,
      response: mcpServer,
      errors: [404],
      handler: async (context, { params: { name }, body }) => {
        const command = `mcp edit ${name} -- ${[body.command, ...body.args].join(' ')}`;
        context.body = await audited(deps, context, { resource: `mcpserver/${name}`, command }, () => catalog.update({ name, ...body }));
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/mcp/servers/:name',
      permission: 'admin',
      summary: 'Remove an MCP server (its child is stopped and its tools withdrawn)',
      params: nameParams,
      response: deleted,
      handler: async (context, { params: { name } }) => {
        await audited(deps, context, { resource: `mcpserver/${name}`, command: `mcp delete ${name}` }, () => catalog.delete(name));
        context.body = { deleted: name };
      },
    }),
  ];
}
