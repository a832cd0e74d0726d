/** The contract's eight audit action types. */
export const auditActions = ['login', 'logout', 'query', 'approve', 'reject', 'execute', 'access_request', 'lock'] as const;
export type AuditAction = (typeof auditActions)[number];
export type AuditDecision = 'allow' | 'deny';

/** What a caller hands to the audit log. */
export interface AuditInput {
  user: string;
  action: AuditAction;
  /** Target written `<kind>/<name>`. */
  resource: string;
  /** For `execute`: `{command}` with the equivalent kubectl/helm command line. */
  details?: Record<string, unknown>;
  decision: AuditDecision;
  source?: string;
  requestId?: string;
  /** `success` or an error message. */
  outcome?: string;
  /** The cluster the action was about (ADR 0035); absent for actions that touch no cluster (sign-in, settings). */
  cluster?: string;
}

/** A stored audit entry as returned by GET /api/audit. */
export interface AuditEntry {
  id: number;
  timestamp: string;
  user: string;
  action: AuditAction;
  resource: string;
  details: Record<string, unknown>;
  decision: AuditDecision;
  source: string | null;
  requestId: string | null;
  outcome: string | null;
  /** Present when the action was about a cluster. */
  cluster?: string;
}

/** The audit sink every module writes to; records are durable when `record` returns. */
export interface AuditRecorder {
  record(entry: AuditInput): AuditEntry;
}
