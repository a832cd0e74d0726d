import type { Logger } from 'pino';
import type { AuditLog } from './audit/audit-log.js';
import type { IdentityResolver } from './rbac/identities.js';
import type { Config } from './config/schema.js';
import type { CacheManager } from './kube/cache-manager.js';
import type { KubeClients } from './kube/clients.js';
import type { Discovery } from './kube/discovery.js';
import type { Db } from './store/database.js';
import type { Metrics } from './http/metrics.js';
import type { HealthService } from './http/health-service.js';
import type { ControllerManager } from './controllers/manager.js';
import type { SecurityServices } from './auth/security-services.js';
import type { Clock } from './clock.js';
import type { TerminalTickets } from './http/terminal-tickets.js';
import type { ToolClusterGateway, ToolRegistry } from './tools/types.js';
import type { McpServers } from './mcp/mcp-servers.js';
import type { SafetyAnalyzer } from './tools/safety/index.js';
import type { Pilot } from './agent/pilot.js';
import type { AccessRequests } from './access/access-requests.js';
import type { PolicyEngine } from './rbac/policy-engine.js';


/** Everything the HTTP layer needs, built once in main.ts (composition root). */
export interface AppDeps {
  config: Config;
  logger: Logger;
  database: Db;
  audit: AuditLog;
  kube: KubeClients;
  discovery: Discovery;
  caches: CacheManager;
  identities: IdentityResolver;
  metrics: Metrics;
  health: HealthService;
  /** Runs the CRD reconcilers while this replica leads. */
  controllers: ControllerManager;
  /** The namespace holding Pilothouse's own objects (AccessRequest, PortForward, Report, MCPServer, Lease). */
  namespace: string;
  /** The data directory (SQLite, Helm repository state under `helm/`). */
  dataDir: string;
  /** One-time tickets of the web terminal WebSocket. */
  terminalTickets: TerminalTickets;
  /** The AI's tools: built-ins plus the tools of connected MCP servers (type `mcp`). */
  tools: ToolRegistry;
  /** External MCP tool servers: client manager (tool calls) and the catalog behind /api/mcp/servers. */
  mcp: McpServers;
  /** Users, sessions and tokens, login, user administration, rate windows (security core). */
  security: SecurityServices;
  /** Milliseconds since the epoch; tests inject a manual clock. */
  clock: Clock;
  /** Command safety analysis (config `authorization.tool_approval`); shared by the agent loop, MCP and /api/tool/analyze. */
  safety: SafetyAnalyzer;
  /** The AI pilot: LLM settings, chat sessions and the agent loop, approvals, user settings (src/agent/pilot.ts). */
  pilot: Pilot;
  /** Just-in-time access requests and the grant index behind the `approval` entries of the matrix (src/access/). */
  accessRequests: AccessRequests;
  /** Opens the per-call policy proxy through which the AI's kubectl and bash tools reach the cluster. */
  toolCluster: ToolClusterGateway & { close(): void };
  /** The one policy decision (src/rbac/policy.ts) with discovery and grants: every HTTP route, helm action and tool request asks it. */
  policy: PolicyEngine;
  version: string;
}
