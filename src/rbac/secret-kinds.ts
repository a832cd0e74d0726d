import type { RoleName } from '../config/schema.js';

/**
 * The kinds whose objects carry secret values, in one table: every rule about secret values (who sees
 * them, where they are masked, which resources Pilothouse's own namespace closes) is derived from it,
 * so a kind added here is masked and closed on every path at once.
 */
export const secretKinds = [
  /** Core Secrets: `data`/`stringData`. Users read the values of the namespaces they may read. */
  { kind: 'Secret', apiGroup: '', resource: 'secrets', valueRoles: ['user', 'admin'] },
  /** Pilothouse MCPServers: `spec.env`, the credentials of the servers Pilothouse starts. Admins only, as `/api/mcp/servers` shows. */
  { kind: 'MCPServer', apiGroup: 'pilothouse.dev', resource: 'mcpservers', valueRoles: ['admin'] },
] as const satisfies readonly { kind: string; apiGroup: string; resource: string; valueRoles: readonly RoleName[] }[];

export type SecretKind = (typeof secretKinds)[number]['kind'];

/** The plural resource names of the secret-carrying kinds (`secrets`, `mcpservers`). */
export const secretResources: ReadonlySet<string> = new Set(secretKinds.map((entry) => entry.resource));

/** The secret-carrying kind of an object (by `kind` and the group of `apiVersion`; '' as apiVersion counts for any group). */
export function secretKindOf(object: { apiVersion?: unknown; kind?: unknown }): SecretKind | undefined {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const found = secretKinds.find((entry) => entry.kind === object.kind && (apiVersion === '' || entry.apiGroup === group));
  return found?.kind;
}

/** The secret-carrying kind a request names by its API group and plural resource. */
export function secretKindOfResource(apiGroup: string, resource: string): SecretKind | undefined {
  return secretKinds.find((entry) => entry.apiGroup === apiGroup && entry.resource === resource)?.kind;
}

/** The API version list items of a kind are masked as (their own objects name none). */
export function secretKindApiVersion(kind: SecretKind): string {
  const group = secretKinds.find((entry) => entry.kind === kind)?.apiGroup ?? '';
  return group ? `${group}/v1` : 'v1';
}

/** Whether role `role` sees the values of objects of kind `kind`. */
export function roleSeesValues(role: RoleName | undefined, kind: SecretKind): boolean {
  const entry = secretKinds.find((candidate) => candidate.kind === kind);
  return role !== undefined && entry !== undefined && (entry.valueRoles as readonly RoleName[]).includes(role);
}
