import type { Actor } from '../../auth/user-admin.js';
import { createUserSchema, lockBodySchema, updateUserSchema, usernameSchema } from '../../auth/user-schemas.js';
import { z } from 'zod';
import { requestAuditFields } from '../audit-context.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import { parseWith } from '../validate.js';
import type { SecurityServices } from '../../auth/security-services.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface AdminRouteDeps {
  security: SecurityServices;
}

const userParams = z.object({ username: usernameSchema });
const sessionParams = z.object({ username: usernameSchema, id: z.string().min(1).max(64) });

function actorOf(context: AppContext): Actor {
  return { principal: context.state.principal!, audit: requestAuditFields(context) };
}

function usernameParam(context: AppContext): string {
  return parseWith(userParams, context.params, 'path').username;
}

/** User management (admin only): users, their sessions, locks. */
export function adminRoutes(deps: AdminRouteDeps): RouteSpec[] {
  const users = deps.security.userAdmin;
  return [
    route({ method: 'GET', path: '/api/admin/users', permission: 'manage_users', summary: 'List users (never password hashes)', handler: async (context) => {
      const items = users.list();
      context.body = { items, total: items.length };
    } }),
    route({ method: 'POST', path: '/api/admin/users', permission: 'manage_users', summary: 'Create a local user {username, password, role, email?, enabled?, roles?}', handler: async (context) => {
      context.status = 201;
      context.body = await users.create(parseWith(createUserSchema, context.request.body), actorOf(context));
    } }),
    route({ method: 'GET', path: '/api/admin/users/:username', permission: 'manage_users', summary: 'One user', handler: async (context) => {
      context.body = users.get(usernameParam(context));
    } }),
    route({ method: 'PATCH', path: '/api/admin/users/:username', permission: 'manage_users', summary: 'Change role, email, enabled, password or resource-level roles', handler: async (context) => {
      const username = usernameParam(context);
      context.body = await users.update(username, parseWith(updateUserSchema, context.request.body), actorOf(context));
    } }),
    route({ method: 'DELETE', path: '/api/admin/users/:username', permission: 'manage_users', summary: 'Delete a user and end their sessions', handler: async (context) => {
      const username = usernameParam(context);
      users.delete(username, actorOf(context));
      context.body = { deleted: username };
    } }),
    route({ method: 'GET', path: '/api/admin/users/:username/sessions', permission: 'manage_users', summary: "A user's sessions, newest first", handler: async (context) => {
      const items = users.listSessions(usernameParam(context));
      context.body = { items, total: items.length };
    } }),
    route({ method: 'DELETE', path: '/api/admin/users/:username/sessions', permission: 'manage_users', summary: "End all of a user's sessions", handler: async (context) => {
      context.body = users.revokeSessions(usernameParam(context), actorOf(context));
    } }),
    route({ method: 'DELETE', path: '/api/admin/users/:username/sessions/:id', permission: 'manage_users', summary: 'End one session', handler: async (context) => {
      const { username, id } = parseWith(sessionParams, context.params, 'path');
      context.body = users.revokeSessions(username, actorOf(context), id);
    } }),
    route({ method: 'POST', path: '/api/admin/lock', permission: 'manage_users', summary: 'Lock {username}: every session ends at once; audited as lock', handler: async (context) => {
      context.body = users.lock(parseWith(lockBodySchema, context.request.body).username, actorOf(context));
    } }),
    route({ method: 'POST', path: '/api/admin/unlock', permission: 'manage_users', summary: 'Unlock {username}; audited as lock with details.locked false', handler: async (context) => {
      context.body = users.unlock(parseWith(lockBodySchema, context.request.body).username, actorOf(context));
    } }),
  ];
}
