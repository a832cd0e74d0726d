import { z } from 'zod';
import { llmSettingsBodySchema } from '../../settings/llm-settings.js';
import { testLlmConnection } from '../../settings/llm-connection-test.js';
import { userSettingsUpdateSchema } from '../../settings/user-settings.js';
import { audited, type AuditContextDeps } from '../audit-context.js';
import { route, type RouteSpec } from '../types.js';
import { principalOf } from '../request-state.js';
import { userSettings as settingsSchema } from '../schemas/api-schemas.js';
import { llmProviders, toolCallingModes } from '../../config/schema.js';
import type { Pilot } from '../../agent/pilot.js';

/** Request bodies, named in the OpenAPI document (components/schemas). */
const userSettingsBody = userSettingsUpdateSchema.meta({ id: 'UserSettingsBody' });
const llmSettingsBody = llmSettingsBodySchema.meta({ id: 'LlmSettingsBody' });

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface SettingsRouteDeps extends AuditContextDeps {
  pilot: Pilot;
}

/** `GET /api/settings/llm`: the LLM configuration in use, without the key. */
const llmSettingsView = z
  .object({
    provider: z.enum(llmProviders),
    model: z.string(),
    base_url: z.string().optional(),
    azure_endpoint: z.string().optional(),
    azure_deployment: z.string().optional(),
    azure_api_version: z.string().optional(),
    region: z.string().optional(),
    timeout: z.number().int(),
    max_retries: z.number().int(),
    tool_calling: z.enum(toolCallingModes).optional(),
    context_tokens: z.number().int().optional(),
    tool_output_share: z.number().optional(),
    allow_private_base_url: z.boolean().optional(),
    apiKeySet: z.boolean(),
    apiKeySource: z.enum(['file', 'config', 'none']),
  })
  .catchall(z.unknown())
  .meta({ id: 'LlmSettings' });

const llmTestResult = z
  .object({
    ok: z.boolean(),
    provider: z.string(),
    model: z.string(),
    answer: z.string().optional(),
    error: z.string().optional(),
    code: z.string().optional(),
  })
  .meta({ id: 'LlmTestResult' });

/** How the audit command shows a key change (never the key). */
function keyChange(apiKey: string | null | undefined): string {
  if (apiKey === undefined) return '';
  return apiKey ? ' api_key=[set]' : ' api_key=[removed]';
}

/**
 * Settings (docs/user-guide/ai-pilot.md). `/api/settings` is per user, so every role reads and writes its own (the
 * global approval rule stays in config: a user's `auto_approve_readonly` can only make their own
 * chat stricter). `/api/settings/llm`: anyone signed in reads it (never the key); admins change it.
 */
export function settingsRoutes(deps: SettingsRouteDeps): RouteSpec[] {
  const { userSettings, llm } = deps.pilot;
  return [
    route({
      method: 'GET',
      path: '/api/settings',
      permission: 'authenticated',
      summary: "The caller's settings: language, beginner_mode, auto_approve_readonly",
      response: settingsSchema,
      handler: async (context) => {
        context.body = userSettings.get(principalOf(context).username);
      },
    }),
    route({
      method: 'PUT',
      path: '/api/settings',
      permission: 'authenticated',
      summary: "Change the caller's settings (any subset of the fields)",
      body: userSettingsBody,
      response: settingsSchema,
      handler: async (context, { body: changes }) => {
        context.body = await userSettings.update(principalOf(context).username, changes);
      },
    }),
    route({
      method: 'GET',
      path: '/api/settings/llm',
      permission: 'authenticated',
      summary: 'The LLM configuration in use, without the key (apiKeySet tells whether one is set)',
      response: llmSettingsView,
      handler: async (context) => {
        context.body = llm.view();
      },
    }),
    route({
      method: 'PUT',
      path: '/api/settings/llm',
      permission: 'admin',
      summary:
        'Change the LLM provider, model, key (taken literally, stored mode 0600) and endpoint; a field left out keeps its value, null clears it, an unknown field is a 400 naming it; used from the next chat turn',
      body: llmSettingsBody,
      response: llmSettingsView,
      handler: async (context, { body }) => {
        const command = `settings llm provider=${body.provider} model=${body.model}${keyChange(body.api_key)}`;
        context.body = await audited(deps, context, { resource: `settings/llm`, command: command }, async () => llm.update(body));
      },
    }),
    route({
      method: 'POST',
      path: '/api/llm/test',
      permission: 'admin',
      summary: 'Test connection: one short chat turn with the LLM configuration in use: {ok, provider, model, answer?, error?, code?}',
      response: llmTestResult,
      handler: async (context) => {
        const config = llm.config();
        const command = `settings llm test provider=${config.provider} model=${config.model}`;
        context.body = await audited(deps, context, { resource: 'settings/llm', command }, () => testLlmConnection(llm.provider(), config.model));
      },
    }),
  ];
}
