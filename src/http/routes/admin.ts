import type { Actor } from '../../auth/users/user-admin.js';
import { createUserSchema, lockBodySchema, updateUserSchema, usernameSchema } from '../../auth/users/user-schemas.js';
import { z } from 'zod';
import { requestAuditFields } from '../audit-context.js';
import { route, type AppContext, type RouteSpec } from '../types.js';
import { deleted, listed, listOf, user } from '../schemas/api-schemas.js';
import type { SecurityServices } from '../../auth/security-services.js';

/** Request bodies, named in the OpenAPI document (components/schemas). */
const userCreateBody = createUserSchema.meta({ id: 'UserCreateBody' });
const userUpdateBody = updateUserSchema.meta({ id: 'UserUpdateBody' });
const lockBody = lockBodySchema.meta({ id: 'UserLockBody' });

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface AdminRouteDeps {
  security: SecurityServices;
}

const userParams = z.object({ username: usernameSchema });
const sessionParams = z.object({ username: usernameSchema, id: z.string().min(1).max(64) });
const sessionsEnded = z.object({}).catchall(z.unknown()).meta({ id: 'SessionsEnded' });
const locked = z.object({ username: z.string() }).catchall(z.unknown()).meta({ id: 'LockChange' });

/** One session of a user (`GET /api/admin/users/{username}/sessions`). */
const userSession = z.object({}).catchall(z.unknown()).meta({ id: 'UserSession' });

function actorOf(context: AppContext): Actor {
  return { principal: context.state.principal!, audit: requestAuditFields(context) };
}

/** User management (admin only): users, their sessions, locks. */
export function adminRoutes(deps: AdminRouteDeps): RouteSpec[] {
  const users = deps.security.userAdmin;
  return [
    route({
      method: 'GET',
      path: '/api/admin/users',
      permission: 'manage_users',
      summary: 'List users (never password hashes)',
      response: listOf(user),
      handler: async (context) => {
        context.body = listed(await users.list());
      },
    }),
    route({
      method: 'POST',
      path: '/api/admin/users',
      permission: 'manage_users',
      summary: 'Create a local user {username, password, role, email?, enabled?, roles?}',
      body: userCreateBody,
      status: 201,
      response: user,
      handler: async (context, { body }) => {
        context.status = 201;
        context.body = await users.create(body, actorOf(context));
      },
    }),
    route({
      method: 'GET',
      path: '/api/admin/users/:username',
      permission: 'manage_users',
      summary: 'One user',
      params: userParams,
      response: user,
      handler: async (context, { params }) => {
        context.body = await users.get(params.username);
      },
    }),
    route({
      method: 'PATCH',
      path: '/api/admin/users/:username',
      permission: 'manage_users',
      summary: 'Change role, email, enabled, password or resource-level roles',
      params: userParams,
      body: userUpdateBody,
      response: user,
      handler: async (context, { params, body }) => {
        context.body = await users.update(params.username, body, actorOf(context));
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/admin/users/:username',
      permission: 'manage_users',
      summary: 'Delete a user and end their sessions',
      params: userParams,
      response: deleted,
      handler: async (context, { params }) => {
        await users.delete(params.username, actorOf(context));
        context.body = { deleted: params.username };
      },
    }),
    route({
      method: 'GET',
      path: '/api/admin/users/:username/sessions',
      permission: 'manage_users',
      summary: "A user's sessions, newest first",
      params: userParams,
      response: listOf(userSession),
      handler: async (context, { params }) => {
        context.body = listed(await users.listSessions(params.username));
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/admin/users/:username/sessions',
      permission: 'manage_users',
      summary: "End all of a user's sessions",
      params: userParams,
      response: sessionsEnded,
      handler: async (context, { params }) => {
        context.body = await users.revokeSessions(params.username, actorOf(context));
      },
    }),
    route({
      method: 'DELETE',
      path: '/api/admin/users/:username/sessions/:id',
      permission: 'manage_users',
      summary: 'End one session',
      params: sessionParams,
      response: sessionsEnded,
      handler: async (context, { params }) => {
        context.body = await users.revokeSessions(params.username, actorOf(context), params.id);
      },
    }),
    ...(
      [
        ['lock', 'Lock {username}: every session ends at once; audited as lock'],
        ['unlock', 'Unlock {username}; audited as lock with details.locked false'],
      ] as const
    ).map(([action, summary]) =>
      route({
        method: 'POST',
        path: `/api/admin/${action}`,
        permission: 'manage_users',
        summary,
        errors: [404],
        body: lockBody,
        response: locked,
        handler: async (context, { body }) => {
          context.body = await users[action](body.username, actorOf(context));
        },
      }),
    ),
  ];
}
