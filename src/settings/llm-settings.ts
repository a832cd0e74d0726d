import { z } from 'zod';
import { durationSchema } from '../config/duration.js';
import { llmProviders, toolCallingModes } from '../config/schema.js';
import type { ContextFit } from '../llm/context-window.js';
import { contextTokensOf } from '../llm/context-window.js';
import { createLlmProvider } from '../llm/providers/index.js';
import type { LlmConfig, LlmProvider, LlmProviderOptions } from '../llm/types.js';
import { checkOutboundUrl, type OutboundUrlPolicy } from '../net/address-policy.js';
import type { ApiKeyStore } from './api-key-file.js';
import type { SettingsSnapshot } from './settings-snapshot.js';

const optionalText = z.string().trim().min(1).max(2048).nullable().optional();

/**
 * Body of `PUT /api/settings/llm`: a change of the configuration in use. A field the body leaves out
 * keeps its value; `null` clears it (back to the config default for `timeout` and `max_retries`); an
 * unknown provider or property is a VALIDATION_ERROR naming it.
 */
export const llmSettingsBodySchema = z
  .object({
    provider: z.enum(llmProviders),
    model: z.string().trim().min(1).max(256),
    /** Omitted: keep the current key; '' or null: remove it; anything else is the key, literally (never `${NAME}`-expanded). */
    api_key: z.string().max(8192).nullable().optional(),
    base_url: z.url().nullable().optional(),
    azure_endpoint: z.url().nullable().optional(),
    azure_deployment: optionalText,
    azure_api_version: optionalText,
    region: optionalText,
    timeout: durationSchema.nullable().optional(),
    max_retries: z.number().int().min(0).max(10).nullable().optional(),
    /** native, prompted (tools described in the prompt, calls read from a fenced JSON block) or auto; null: back to config. */
    tool_calling: z.enum(toolCallingModes).nullable().optional(),
  })
  .strict();
export type LlmSettingsBody = z.infer<typeof llmSettingsBodySchema>;

/**
 * What is stored under the settings key `llm` (never the key itself). `api_key_env` is a field of
 * older versions, which expanded `${NAME}` keys from the service's environment; it is ignored now.
 */
type StoredLlmSettings = { [Field in Exclude<keyof LlmSettingsBody, 'api_key'>]?: NonNullable<LlmSettingsBody[Field]> } & {
  provider: LlmSettingsBody['provider'];
  model: string;
  api_key_env?: string;
};

/** Where the key in use comes from. */
export type ApiKeySource = 'file' | 'config' | 'none';

/** `GET /api/settings/llm`: the configuration without the key. */
export type LlmSettingsView = Omit<LlmConfig, 'api_key' | 'prices' | 'budgets'> & { apiKeySet: boolean; apiKeySource: ApiKeySource };

const settingsKey = 'llm';

/** The object without its undefined and null fields. */
function dropEmpty<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined && field !== null)) as T;
}

/** `current` with a body's fields over it: a field left out keeps its value, `null` removes it. */
function changed(current: StoredLlmSettings, fields: Omit<LlmSettingsBody, 'api_key'>): StoredLlmSettings {
  const next: Record<string, unknown> = { ...current };
  delete next.api_key_env;
  for (const [field, value] of Object.entries(fields)) {
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  return next as StoredLlmSettings;
}

export interface LlmSettingsOptions {
  /** Config `llm` (environment references already resolved): used until an admin stores settings. */
  base: LlmConfig;
  /** The settings in use (shared by the replicas with `database.url`). */
  store: SettingsSnapshot;
  /** The key set through the API: a data dir file, or the shared store with `database.url`. */
  keyFile: ApiKeyStore;
  /** Rules for `base_url` and `azure_endpoint` set through the API (config `llm.allow_private_base_url`). */
  urlPolicy: OutboundUrlPolicy;
  providerOptions?: LlmProviderOptions;
}

/**
 * The LLM configuration in use: config `llm` until an admin changes it through `PUT /api/settings/llm`;
 * each change starts from the configuration in use (the first from config `llm`), so a field the body
 * leaves out keeps its value and `null` clears it (`timeout` and `max_retries` then fall back to
 * config). The key is kept in
 * the data dir with mode 0600 (in the shared store with `database.url`), taken literally (`${ENV}`
 * expansion is for the config file only); it is never returned. The provider is rebuilt after each
 * change, here or on another replica, so the next chat turn uses it.
 */
export class LlmSettings {
  private cached?: LlmProvider;

  constructor(private readonly options: LlmSettingsOptions) {
    options.store.onChange(() => (this.cached = undefined));
  }

  /** The provider of the current configuration. */
  provider(): LlmProvider {
    this.cached ??= createLlmProvider(this.config(), this.options.providerOptions);
    return this.cached;
  }

  /** Health: 'unconfigured' until a key, a base URL or stored settings exist, else the provider's check. */
  async check(): Promise<'available' | 'unavailable' | 'unconfigured'> {
    if (!this.configured()) return 'unconfigured';
    return this.provider().check();
  }

  view(): LlmSettingsView {
    const { api_key: apiKey, ...config } = this.config();
    // Prices and budgets are config-only (and not every signed-in user's business).
    for (const field of ['allow_private_base_url', 'prices', 'budgets']) delete (config as Record<string, unknown>)[field];
    return { ...config, apiKeySet: Boolean(apiKey), apiKeySource: apiKey ? this.keySource() : 'none' };
  }

  /**
   * Validated body → stored settings (and key file); returns the new view. The URLs must pass the
   * outbound address rules (src/net/address-policy.ts) first: VALIDATION_ERROR otherwise.
   */
  async update(body: LlmSettingsBody): Promise<LlmSettingsView> {
    if (body.base_url) await checkOutboundUrl(body.base_url, this.options.urlPolicy, 'base_url');
    if (body.azure_endpoint) await checkOutboundUrl(body.azure_endpoint, this.options.urlPolicy, 'azure_endpoint');
    const { api_key: apiKey, ...fields } = body;
    await this.storeKey(apiKey);
    await this.options.store.set(settingsKey, changed(this.current(), fields));
    this.cached = undefined;
    return this.view();
  }

  /** The context window of the model in use (`llm.context_tokens`, else the known models' table) and a tool result's share of it. */
  contextFit(): ContextFit {
    const config = this.config();
    return { contextTokens: contextTokensOf(config.model, config.context_tokens), toolOutputShare: config.tool_output_share };
  }

  /** `tool_calling` in use (PUT /api/settings/llm, else config). */
  toolCalling(): LlmConfig['tool_calling'] {
    return this.config().tool_calling;
  }

  /** The effective provider configuration, key included (internal use only). */
  config(): LlmConfig {
    const stored = this.stored();
    const { base } = this.options;
    if (!stored) return base;
    const fields: Partial<StoredLlmSettings> = { ...stored };
    delete fields.api_key_env;
    const { timeout, max_retries, tool_calling, prices, budgets, context_tokens, tool_output_share } = base;
    const fromConfig = { timeout, max_retries, tool_calling, prices, budgets, context_tokens, tool_output_share };
    return { ...fromConfig, ...fields, api_key: this.storedKey(stored) } as LlmConfig;
  }

  /** The settings a change starts from: the stored ones, else config `llm` (without its key). */
  private current(): StoredLlmSettings {
    const stored = this.stored();
    if (stored) return stored;
    const { provider, model, base_url, azure_endpoint, azure_deployment, azure_api_version, region } = this.options.base;
    return dropEmpty({ provider, model, base_url, azure_endpoint, azure_deployment, azure_api_version, region });
  }

  private async storeKey(apiKey: string | null | undefined): Promise<void> {
    if (apiKey === undefined) return;
    if (apiKey === '' || apiKey === null) await this.options.keyFile.remove();
    else await this.options.keyFile.write(apiKey);
  }

  private storedKey(stored: StoredLlmSettings): string | undefined {
    return this.options.keyFile.read() ?? (stored.provider === this.options.base.provider ? this.options.base.api_key : undefined);
  }

  private keySource(): ApiKeySource {
    const stored = this.stored();
    if (!stored) return 'config';
    return this.options.keyFile.read() ? 'file' : 'config';
  }

  private configured(): boolean {
    const { base } = this.options;
    return this.stored() !== undefined || Boolean(base.api_key || base.base_url || base.azure_endpoint);
  }

  private stored(): StoredLlmSettings | undefined {
    return this.options.store.get<StoredLlmSettings>(settingsKey);
  }
}
