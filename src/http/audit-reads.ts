import { audited, type AuditContextDeps } from './audit-context.js';
import type { AppContext } from './types.js';
import type { Config } from '../config/schema.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface AuditReadsDeps extends AuditContextDeps {
  config: Config;
}

/** A read the audit log may record: the equivalent command line, and whether it reveals sensitive data. */
export interface AuditedRead {
  resource: string;
  command: string;
  /** Secret (and MCPServer) get/yaml/describe, pod logs, helm values and manifests. */
  sensitive: boolean;
}

/** Whether config `audit.include_reads` (all | sensitive | none) asks for this read. */
export function readIsAudited(includeReads: Config['audit']['include_reads'], sensitive: boolean): boolean {
  return includeReads === 'all' || (includeReads === 'sensitive' && sensitive);
}

/**
 * Runs a read and, when `audit.include_reads` asks for it, records it like a command: action
 * `execute`, `details.command`, decision allow (deny when the cluster refuses), outcome.
 */
export function auditedRead<T>(deps: AuditReadsDeps, context: AppContext, read: AuditedRead, action: () => Promise<T>): Promise<T> {
  if (!readIsAudited(deps.config.audit.include_reads, read.sensitive)) return action();
  return audited(deps, context, { resource: read.resource, command: read.command }, action);
}
