import { z } from 'zod';
import { roleNames } from '../../config/schema.js';
import type { UserRecord } from '../../store/users-store.js';

export const usernameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9._@-]*$/, 'must start with a letter or digit and use only letters, digits, ".", "_", "@", "-"');
const passwordSchema = z.string().min(8, 'must be at least 8 characters').max(1024);
const emailSchema = z.email('must be a valid e-mail address').max(254);
const extraRolesSchema = z.array(z.string().min(1)).max(64);

/** `POST /api/auth/login`: `{password}` logs in the admin; `{username, password}` any local user. */
export const loginBodySchema = z.object({
  username: z.string().min(1).max(128).optional(),
  // An empty password is a wrong password (401, audited and counted), never a directory's anonymous bind.
  password: z.string().max(1024),
});

/** `POST /api/admin/users`. */
export const createUserSchema = z.strictObject({
  username: usernameSchema,
  password: passwordSchema,
  role: z.enum(roleNames).default('viewer'),
  email: emailSchema.optional(),
  enabled: z.boolean().default(true),
  roles: extraRolesSchema.default([]),
});
export type CreateUserInput = z.infer<typeof createUserSchema>;

/** `PATCH /api/admin/users/{username}`: any subset; `email: null` clears it. */
export const updateUserSchema = z.strictObject({
  password: passwordSchema.optional(),
  role: z.enum(roleNames).optional(),
  email: emailSchema.nullable().optional(),
  enabled: z.boolean().optional(),
  roles: extraRolesSchema.optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

/** `POST /api/admin/lock` and `/api/admin/unlock`. */
export const lockBodySchema = z.object({ username: z.string().min(1).max(128) });

/** A user as the API shows it: never the password hash. */
export type PublicUser = Omit<UserRecord, 'passwordHash'>;

export function publicUser(user: UserRecord): PublicUser {
  return {
    username: user.username,
    role: user.role,
    email: user.email,
    roles: user.roles,
    enabled: user.enabled,
    locked: user.locked,
    source: user.source,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}
