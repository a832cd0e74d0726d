import { z } from 'zod';

/** The base roles of the permission matrix. */
export const roleNames = ['viewer', 'user', 'admin'] as const;
export type RoleName = (typeof roleNames)[number];

export const resourceRoleSchema = z.object({
  name: z.string().min(1),
  resources: z.array(z.string()).default(['*']),
  namespaces: z.array(z.string()).default(['*']),
  verbs: z.array(z.enum(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', '*'])).default(['get', 'list', 'watch']),
  effect: z.enum(['allow', 'deny']).default('allow'),
  /** The clusters (names: `cluster.name`, `clusters[].name`, cluster Secrets) the rule holds on; absent: every cluster. */
  clusters: z.array(z.string().min(1)).min(1).optional(),
});
export type ResourceRole = z.infer<typeof resourceRoleSchema>;

/** One entry of `auth.token.role_mappings`: a Kubernetes user and/or group → base role (first match wins). */
export const tokenRoleMappingSchema = z
  .object({
    user: z.string().min(1).optional(),
    group: z.string().min(1).optional(),
    role: z.enum(roleNames),
    /** Extra resource-level role names (`authorization.roles`) for the matched callers. */
    roles: z.array(z.string()).default([]),
  })
  .refine((mapping) => mapping.user !== undefined || mapping.group !== undefined, { message: 'a role mapping names a user or a group' });
export type TokenRoleMapping = z.infer<typeof tokenRoleMappingSchema>;
