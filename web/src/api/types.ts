/** Shapes of the HTTP API as the UI uses them (see the service's route files and /api/openapi.json). */

export type Role = 'viewer' | 'user' | 'admin';

export interface Session {
  token: string;
  expires_at: string;
  username: string;
  role: Role;
}

export interface Health {
  status: 'healthy' | 'degraded' | string;
  kubernetes: string;
  llm: string;
}

export type ResourceItem = Record<string, unknown> & { name: string; namespace?: string; age?: string };

export interface ListResponse<T> {
  items: T[];
  total: number;
}

export type CommandClass = 'read' | 'write' | 'dangerous' | 'interactive' | 'unknown';

/** `POST /api/tool/analyze` answer (camel-cased SafetyReport). */
export interface SafetyReport {
  command: string;
  type: CommandClass;
  requiresApproval: boolean;
  isDangerous: boolean;
  isInteractive: boolean;
  isReadOnly: boolean;
  blocked: boolean;
  blockedBy?: string;
  warnings: string[];
}

export type ToolStatus = 'executed' | 'rejected' | 'timeout' | 'blocked' | 'forbidden' | 'error';
export type TurnEndReason = 'final_answer' | 'step_cap' | 'error' | 'cancelled';

export interface ChatSessionSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

export interface ToolCallView {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  command?: string;
  type?: CommandClass;
  requires_approval?: boolean;
  blocked?: boolean;
  warnings?: string[];
  decision?: 'approved' | 'rejected' | 'timeout' | 'cancelled';
  decided_by?: string;
  status?: ToolStatus;
  result?: string;
}

export type MessageView =
  | { role: 'user'; content: string; context: { namespace?: string; resource?: string }; created_at: string }
  | { role: 'assistant'; content: string; tool_calls: ToolCallView[]; created_at: string }
  | { role: 'turn_end'; reason: TurnEndReason; error?: { code: string; message: string }; created_at: string };

export interface ChatHistory {
  session: ChatSessionSummary;
  messages: MessageView[];
}

export interface AuditEntry {
  id: number;
  timestamp: string;
  user: string;
  action: string;
  resource: string;
  details: Record<string, unknown>;
  decision: 'allow' | 'deny';
  source: string | null;
  request_id: string | null;
  outcome: string | null;
}

export interface User {
  username: string;
  role: Role;
  email: string | null;
  roles: string[];
  enabled: boolean;
  locked: boolean;
  source: string;
  created_at: string;
  updated_at: string;
}

export type Language = 'en' | 'ko' | 'ja' | 'zh';

export interface UserSettings {
  language: Language;
  beginner_mode: boolean;
  auto_approve_readonly: boolean;
}

export interface RevisionItem {
  revision: number;
  images: string[];
  createdAt: string;
  current: boolean;
  changeCause?: string | null;
}

export type AccessPhase = 'Pending' | 'Approved' | 'Denied' | 'Expired';

/** `/api/access-requests` item: a just-in-time access request. */
export interface AccessRequest {
  id: string;
  requester: string;
  permission: string;
  namespaces: string[];
  resources: string[];
  reason?: string | null;
  ttl: string;
  phase: AccessPhase;
  reviewer?: string | null;
  reviewedAt?: string | null;
  expiresAt?: string | null;
  message?: string | null;
  createdAt: string;
}
