import { z } from 'zod';

/** Kubernetes object naming rules (DNS-1123), shared by the HTTP layer and the areas that validate names. */
const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A Kubernetes namespace name (DNS-1123 label). */
export const namespaceSchema = z.string().max(63).regex(dns1123Label, 'must be a DNS-1123 label (lowercase letters, digits, "-")');
/** An object name (DNS-1123 subdomain; `:` also allowed for RBAC names like system:node). */
export const objectNameSchema = z
  .string()
  .max(253)
  .refine((value) => dns1123Subdomain.test(value.replaceAll(':', '-')), 'must be a DNS-1123 subdomain (lowercase letters, digits, "-", ".")')
  // The refinement as the OpenAPI document shows it.
  .meta({ pattern: '^[a-z0-9:]([-a-z0-9:]*[a-z0-9:])?(\\.[a-z0-9:]([-a-z0-9:]*[a-z0-9:])?)*$' });

/** Code-point order (as kubectl sorts names): much cheaper than locale-aware comparison on 10,000 rows. */
export function ordinal(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
