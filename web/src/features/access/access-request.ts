import type { AccessNeeded, AccessRequestCreateBody } from '@pilothouse/wire/types';

export const ttlChoices = ['30m', '1h', '4h'] as const;

/** The dialog's fields: namespaces and kinds are comma-separated lists (empty: all). */
export interface AccessRequestFields {
  namespace: string;
  resource: string;
  ttl: string;
  reason: string;
  permission?: AccessNeeded['permission'];
}

const listOf = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The dialog's fields for a prefilled scope (an AI tool call's accessNeeded). */
export function fieldsOf(scope: AccessNeeded): Pick<AccessRequestFields, 'namespace' | 'resource' | 'permission'> {
  return { namespace: scope.namespaces.join(', '), resource: scope.resources.join(', '), permission: scope.permission };
}

/** The request body of the dialog's fields (empty namespace / kind mean all). */
export function accessRequestBody(fields: AccessRequestFields): AccessRequestCreateBody {
  const namespaces = listOf(fields.namespace);
  const resources = listOf(fields.resource);
  const reason = fields.reason.trim();
  return {
    permission: fields.permission ?? 'execute_write',
    ...(namespaces.length ? { namespaces } : {}),
    ...(resources.length ? { resources } : {}),
    ...(reason ? { reason } : {}),
    ttl: fields.ttl,
  };
}
