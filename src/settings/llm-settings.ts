import { z } from 'zod';
import { durationSchema } from '../config/duration.js';
import { llmProviders } from '../config/schema.js';
import { createLlmProvider } from '../llm/index.js';
import type { LlmConfig, LlmProvider, LlmProviderOptions } from '../llm/types.js';
import type { SettingsStore } from '../store/settings-store.js';
import type { ApiKeyFile } from './api-key-file.js';

const optionalText = z.string().trim().min(1).max(2048).optional();

/** Body of `PUT /api/settings/llm`; an unknown provider or property is a VALIDATION_ERROR. */
export const llmSettingsBodySchema = z
  .object({
    provider: z.enum(llmProviders),
    model: z.string().trim().min(1).max(256),
    /** Omitted: keep the current key; '': remove it; `${NAME}`: read from the environment variable NAME. */
    api_key: z.string().max(8192).optional(),
    base_url: z.url().optional(),
    azure_endpoint: z.url().optional(),
    azure_deployment: optionalText,
    azure_api_version: optionalText,
    region: optionalText,
    timeout: durationSchema.optional(),
    max_retries: z.number().int().min(0).max(10).optional(),
  })
  .strict();
export type LlmSettingsBody = z.infer<typeof llmSettingsBodySchema>;

/** What is stored under the settings key `llm` (never the key itself). */
type StoredLlmSettings = Omit<LlmSettingsBody, 'api_key'> & { api_key_env?: string };

/** Where the key in use comes from. */
export type ApiKeySource = 'file' | 'environment' | 'config' | 'none';

/** `GET /api/settings/llm`: the configuration without the key. */
export type LlmSettingsView = Omit<LlmConfig, 'api_key'> & { api_key_set: boolean; api_key_source: ApiKeySource; api_key_env?: string };

const environmentReference = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const settingsKey = 'llm';

export interface LlmSettingsOptions {
  /** Config `llm` (environment references already resolved): used until an admin stores settings. */
  base: LlmConfig;
  store: SettingsStore;
  keyFile: ApiKeyFile;
  environment?: NodeJS.ProcessEnv;
  providerOptions?: LlmProviderOptions;
}

/**
 * The LLM configuration in use: config `llm`, replaced as a whole (but for `timeout` and
 * `max_retries` defaults) by settings stored through `PUT /api/settings/llm`. The key is kept in
 * the data dir with mode 0600 or named as `${ENV}`; it is never returned. The provider is rebuilt
 * after each change, so the next chat turn uses it.
 */
export class LlmSettings {
  private cached?: LlmProvider;
  private readonly environment: NodeJS.ProcessEnv;

  constructor(private readonly options: LlmSettingsOptions) {
    this.environment = options.environment ?? process.env;
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
    const reference = this.stored()?.api_key_env;
    const view: LlmSettingsView = { ...config, api_key_set: Boolean(apiKey), api_key_source: apiKey ? this.keySource() : 'none' };
    if (reference) view.api_key_env = reference;
    return view;
  }

  /** Validated body → stored settings (and key file); returns the new view. */
  update(body: LlmSettingsBody): LlmSettingsView {
    const { api_key: apiKey, ...fields } = body;
    const previous = this.stored();
    const stored: StoredLlmSettings = { ...fields };
    if (apiKey === undefined && previous?.api_key_env) stored.api_key_env = previous.api_key_env;
    this.storeKey(apiKey, stored);
    this.options.store.set(settingsKey, stored);
    this.cached = undefined;
    return this.view();
  }

  /** The effective provider configuration, key included (internal use only). */
  config(): LlmConfig {
    const stored = this.stored();
    const { base } = this.options;
    if (!stored) return base;
    const fields: Partial<StoredLlmSettings> = { ...stored };
    delete fields.api_key_env;
    return { timeout: base.timeout, max_retries: base.max_retries, ...(fields as LlmSettingsBody), api_key: this.storedKey(stored) };
  }

  private storeKey(apiKey: string | undefined, stored: StoredLlmSettings): void {
    if (apiKey === undefined) return;
    const reference = environmentReference.exec(apiKey.trim());
    if (reference) stored.api_key_env = apiKey.trim();
    if (reference || apiKey === '') this.options.keyFile.remove();
    else this.options.keyFile.write(apiKey);
  }

  private storedKey(stored: StoredLlmSettings): string | undefined {
    const name = stored.api_key_env ? environmentReference.exec(stored.api_key_env)?.[1] : undefined;
    if (name) return this.environment[name] || undefined;
    return this.options.keyFile.read() ?? (stored.provider === this.options.base.provider ? this.options.base.api_key : undefined);
  }

  private keySource(): ApiKeySource {
    const stored = this.stored();
    if (!stored) return 'config';
    if (stored.api_key_env) return 'environment';
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
