import { readFileSync } from 'node:fs';
import * as client from 'openid-client';
import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { Agent, fetch as undiciFetch } from 'undici';
import { ConfigError } from '../../config/load.js';
import type { OidcSettings } from './oidc-identity.js';

/** What the start of `--auth-mode oidc` needs; missing keys stop the start with one line naming the key. */
export interface OidcProviderSettings extends OidcSettings {
  issuer: string;
  client_id: string;
  redirect_url: string;
}

export function requireOidcSettings(settings: OidcSettings): OidcProviderSettings {
  for (const key of ['issuer', 'client_id', 'redirect_url'] as const) {
    if (!settings[key]) throw new ConfigError(`oidc.${key} is required when auth.mode is oidc`);
  }
  return settings as OidcProviderSettings;
}

/** fetch for the provider: trusts `oidc.ca_file` (a private CA) besides the system roots. */
function providerFetch(caFile: string | undefined): client.CustomFetch | undefined {
  if (!caFile) return undefined;
  let ca: string;
  try {
    ca = readFileSync(caFile, 'utf8');
  } catch (error) {
    throw new ConfigError(`oidc.ca_file: cannot read ${caFile}: ${(error as Error).message}`);
  }
  const dispatcher = new Agent({ connect: { ca } });
  return (url, options) => undiciFetch(url, { ...(options as object), dispatcher }) as unknown as ReturnType<client.CustomFetch>;
}

/** The relying party's view of the provider: discovered metadata, client credentials and a fetch that trusts `ca_file`. */
export interface OidcProvider {
  readonly settings: OidcProviderSettings;
  readonly configuration: client.Configuration;
  /** fetch used toward the provider (JWKS of bearer ID tokens too). */
  readonly fetch: client.CustomFetch | undefined;
  /** The issuer's signing keys (JWKS), fetched again when a token names an unknown key id (rotation). */
  readonly keys: JWTVerifyGetKey;
}

/** The issuer's JWKS as a key set for ID token signatures, refetched at most every 5 s on an unknown key id. */
function issuerKeys(configuration: client.Configuration, fetch: client.CustomFetch | undefined): JWTVerifyGetKey {
  const jwksUri = configuration.serverMetadata().jwks_uri;
  if (!jwksUri) throw new ConfigError('oidc.issuer: the provider publishes no jwks_uri');
  return createRemoteJWKSet(new URL(jwksUri), { cooldownDuration: 5_000, ...(fetch ? { [customFetch]: fetch as never } : {}) });
}

/** Signature algorithms accepted on ID tokens (asymmetric only: the provider's JWKS). */
export const idTokenAlgorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * Discovers the provider (`/.well-known/openid-configuration`) at start; a failure names `oidc.issuer`.
 * The client authenticates with `client_secret` (basic) when one is set, else as a public client.
 */
export async function discoverProvider(settings: OidcSettings): Promise<OidcProvider> {
  const required = requireOidcSettings(settings);
  const fetch = providerFetch(settings.ca_file);
  const secret = required.client_secret || undefined;
  const auth = secret ? client.ClientSecretBasic(secret) : client.None();
  const options: client.DiscoveryRequestOptions = { timeout: 10 };
  if (fetch) options[client.customFetch] = fetch;
  // Plain HTTP only toward a provider on this machine (development); anything else must be HTTPS.
  const issuerUrl = new URL(required.issuer);
  if (issuerUrl.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuerUrl.hostname)) options.execute = [client.allowInsecureRequests];
  try {
    const configuration = await client.discovery(issuerUrl, required.client_id, { redirect_uris: [required.redirect_url] }, auth, options);
    if (fetch) configuration[client.customFetch] = fetch;
    return { settings: required, configuration, fetch, keys: issuerKeys(configuration, fetch) };
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message) : String(error);
    throw new ConfigError(`oidc.issuer: cannot discover ${required.issuer}: ${reason}`);
  }
}
