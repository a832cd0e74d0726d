/** A resource kind as GET /api/k8s lists it. */
export interface ResourceKind {
  name: string;
  kind: string;
  group: string;
  plural: string;
  singular: string;
  shortNames: string[];
  namespaced: boolean;
  verbs: string[];
}

/** A row of a list: name, namespace, age, and the kind's own columns. */
export type Row = { name: string; namespace?: string; age?: string } & Record<string, unknown>;

/** GET /api/auth/me. */
export interface Me {
  username: string;
  role: string;
  roles: string[];
  expires_at: string | null;
}

/** GET /api/health. */
export interface Health {
  status: string;
  kubernetes: string;
  llm: string;
  context?: string;
  [key: string]: unknown;
}

/** An access request as the API shows it. */
export interface AccessRequest {
  id: string;
  permission: string;
  namespaces: string[];
  resources: string[];
  reason?: string | null;
  ttl: string;
  phase: string;
  createdAt: string;
}

/** A row of GET /api/helm/releases. */
export interface HelmRelease {
  name: string;
  namespace: string;
  revision: number;
  status: string;
  chart: string;
  appVersion?: string;
  updated?: string;
}

/** The object a row stands for. */
export interface Target {
  resource: string;
  name: string;
  namespace?: string;
}
