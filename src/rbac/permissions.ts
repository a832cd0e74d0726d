import type { RoleName } from '../config/schema.js';

/**
 * The permission a route needs. The matrix below is the contract's permission matrix;
 * every route declares exactly one of these in its RouteSpec.
 */
export const permissions = [
  'public', // no authentication (health, login)
  'authenticated', // any signed-in role (own settings, own chat history, logout)
  'view', // view resources
  'view_logs', // view logs
  'execute_read', // execute read commands (AI chat with read tools)
  'execute_write', // write commands: role user only with an approved access grant
  'delete', // delete resources
  'manage_users', // users, sessions, locks
  'view_audit', // audit log
  'admin', // other administration (LLM settings, MCP servers)
] as const;
export type Permission = (typeof permissions)[number];

/** Base decision per role; `approval` means allowed only with an approved just-in-time grant. */
export const permissionMatrix: Record<Permission, Record<RoleName, 'yes' | 'no' | 'approval'>> = {
  public: { viewer: 'yes', user: 'yes', admin: 'yes' },
  authenticated: { viewer: 'yes', user: 'yes', admin: 'yes' },
  view: { viewer: 'yes', user: 'yes', admin: 'yes' },
  view_logs: { viewer: 'yes', user: 'yes', admin: 'yes' },
  execute_read: { viewer: 'no', user: 'yes', admin: 'yes' },
  execute_write: { viewer: 'no', user: 'approval', admin: 'yes' },
  delete: { viewer: 'no', user: 'no', admin: 'yes' },
  manage_users: { viewer: 'no', user: 'no', admin: 'yes' },
  view_audit: { viewer: 'no', user: 'no', admin: 'yes' },
  admin: { viewer: 'no', user: 'no', admin: 'yes' },
};
