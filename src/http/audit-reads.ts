import type { AppDeps } from '../deps.js';
import { audited } from './audit-context.js';
import type { AppContext } from './types.js';

/** A read the audit log may record: the equivalent command line, and whether it reveals sensitive data. */
export interface AuditedRead {
  resource: string;
  command: string;
  /** Secret (and MCPServer) get/yaml/describe, pod logs, helm values and manifests. */
  sensitive: boolean;
}

/** Whether config `audit.include_reads` (all | sensitive | none) asks for this read. */
export function readIsAudited(includeReads: AppDeps['config']['audit']['include_reads'], sensitive: boolean): boolean {
  return includeReads === 'all' || (includeReads === 'sensitive' && sensitive);
}

/**
 * Runs a read and, when `audit.include_reads` asks for it, records it like a command: action
 * `execute`, `details.command`, decision allow (deny when the cluster refuses), outcome.
 */
export function auditedRead<T>(deps: AppDeps, context: AppContext, read: AuditedRead, action: () => Promise<T>): Promise<T> {
  if (!readIsAudited(deps.config.audit.include_reads, read.sensitive)) return action();
  return audited(deps, context, { resource: read.resource, command: read.command }, action);
}
