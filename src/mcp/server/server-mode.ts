import { join } from 'node:path';
import type { Logger } from 'pino';
import { AuditLog } from '../../audit/audit-log.js';
import type { Config } from '../../config/schema.js';
import { openDatabase, type Db } from '../../store/database.js';
import { findBinary } from '../../tools/binaries.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from '../../tools/safety/index.js';
import { version } from '../../version.js';
import type { ServerModeDeps } from './pilothouse-server.js';
import { ToolExecutor } from './tool-executor.js';

export interface ServerModeOptions {
  config: Config;
  dataDir: string;
  kubeconfigPath?: string;
  context?: string;
  logger: Logger;
}

/**
 * The cluster identity of server-mode calls under `authorization.impersonation`: the mapping of
 * `admin` when writes are allowed, else of `viewer` (fail closed to `system:anonymous`).
 */
export function serverModeIdentity(config: Config): string | undefined {
  const impersonation = config.authorization.impersonation;
  if (!impersonation.enabled) return undefined;
  const role = config.mcp_server.allow_writes ? 'admin' : 'viewer';
  return impersonation.mappings[role] ?? impersonation.mappings.viewer ?? 'system:anonymous';
}

/** Builds the server mode's dependencies: audit store in the data dir, safety analyzer, kubectl/bash executor. */
export function buildServerModeDeps(options: ServerModeOptions): { deps: ServerModeDeps; database: Db } {
  const { config } = options;
  const database = openDatabase(options.dataDir);
  const identity = config.mcp_server.identity;
  const executor = new ToolExecutor({
    kubectlPath: findBinary('kubectl', config.tools.kubectl),
    kubeconfigPath: options.kubeconfigPath ?? config.kubernetes.kubeconfig,
    kubeContext: options.context ?? config.kubernetes.context,
    impersonate: serverModeIdentity(config),
    outputLimit: config.tools.output_limit,
    timeoutMs: config.tools.timeout,
    sandboxRoot: join(options.dataDir, 'mcp-sandbox'),
    principal: { username: identity, role: config.mcp_server.allow_writes ? 'admin' : 'viewer', roles: [] },
  });
  const deps: ServerModeDeps = {
    analyzer: new SafetyAnalyzer(safetyOptionsFromConfig(config.authorization.tool_approval, config.tools.files.root)),
    policy: { allowWrites: config.mcp_server.allow_writes, bash: config.mcp_server.bash },
    executor,
    audit: new AuditLog(database),
    identity,
    version,
  };
  return { deps, database };
}
