import type { AuditRecorder } from '../../audit/types.js';
import type { Clock } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { SealedTokensStore } from '../../store/sealed-tokens-store.js';
import type { UsersStore } from '../../store/users-store.js';
import type { Authenticator } from '../sessions/authenticator.js';
import type { SessionManager } from '../sessions/sessions.js';
import { OidcBearerAuthenticator } from './oidc-bearer.js';
import { discoverProvider, type OidcProvider } from './oidc-client.js';
import { OidcFlows } from './oidc-flows.js';
import { SignInSeal } from './oidc-sign-in-seal.js';
import type { OidcSettings } from './oidc-identity.js';
import { OidcAccounts } from './oidc-sign-in.js';

export interface OidcServiceDeps {
  settings: OidcSettings;
  users: UsersStore;
  sessions: SessionManager;
  audit: AuditRecorder;
  clock: Clock;
  /** Device sign-ins under way and used browser sign-in states, shared by replicas. */
  tokens: SealedTokensStore;
  /** The JWT signing key: the browser sign-in cookie's keys are derived from it (replicas share it). */
  signingKey: Uint8Array;
}

/** What the login page needs to know about SSO (public). */
export interface SsoInfo {
  enabled: boolean;
  buttonLabel: string;
  loginUrl: string;
}

/**
 * Single sign-on with OpenID Connect (`--auth-mode oidc`): discovered at start, then the browser and
 * device flows and the bearer ID token authenticator. Without SSO every SSO route answers 404.
 */
export class OidcService {
  private provider?: OidcProvider;
  private flowsReady?: OidcFlows;
  private readonly accounts: OidcAccounts;

  constructor(private readonly deps: OidcServiceDeps) {
    this.accounts = new OidcAccounts(deps);
  }

  /** Discovers the provider; a failure stops the start with one line naming the key. */
  async start(): Promise<void> {
    this.provider = await discoverProvider(this.deps.settings);
    this.flowsReady = new OidcFlows(this.provider, this.accounts, this.deps.clock, {
      store: this.deps.tokens,
      seal: new SignInSeal(this.deps.signingKey),
    });
  }

  get enabled(): boolean {
    return this.flowsReady !== undefined;
  }

  get flows(): OidcFlows {
    if (!this.flowsReady) throw notFound('single sign-on is not enabled (auth.mode is not oidc)');
    return this.flowsReady;
  }

  /** True when the provider redirects back over HTTPS: the sign-in cookie is then `Secure`. */
  get httpsCallback(): boolean {
    return this.deps.settings.redirect_url?.startsWith('https:') ?? false;
  }

  info(): SsoInfo {
    return { enabled: this.enabled, buttonLabel: this.deps.settings.button_label, loginUrl: '/api/auth/oidc/login' };
  }

  /** The provider's RP-initiated logout URL, when it has an `end_session_endpoint`. */
  endSessionUrl(postLogoutRedirect?: string): string | undefined {
    const provider = this.provider;
    if (!provider?.configuration.serverMetadata().end_session_endpoint) return undefined;
    // Back to the web UI's root (register it as a post-logout redirect URI at the provider).
    const parameters = {
      client_id: provider.settings.client_id,
      post_logout_redirect_uri: postLogoutRedirect ?? new URL('/', provider.settings.redirect_url).href,
    };
    const url = new URL(provider.configuration.serverMetadata().end_session_endpoint!);
    for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
    return url.href;
  }

  /** Pilothouse session JWTs, plus ID tokens of the issuer presented directly. */
  authenticator(sessions: Authenticator): Authenticator {
    if (!this.provider) throw new Error('OidcService.start() must finish first');
    return new OidcBearerAuthenticator(this.provider, this.accounts, sessions, this.deps.clock);
  }

  close(): void {
    this.flowsReady?.close();
  }
}
