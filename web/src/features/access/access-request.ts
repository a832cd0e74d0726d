export const ttlChoices = ['30m', '1h', '4h'] as const;

/** The request body of the dialog's fields (empty namespace / kind mean all). */
export function accessRequestBody(fields: { namespace: string; resource: string; ttl: string; reason: string }): Record<string, unknown> {
  const namespace = fields.namespace.trim();
  const resource = fields.resource.trim();
  const reason = fields.reason.trim();
  return {
    permission: 'execute_write',
    ...(namespace ? { namespaces: [namespace] } : {}),
    ...(resource ? { resources: [resource] } : {}),
    ...(reason ? { reason } : {}),
    ttl: fields.ttl,
  };
}
