import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { Clock } from '../clock.js';
import { AppError, isAppError, unauthorized } from '../errors.js';
import type { LoginResult } from './login.js';
import { jwtVerify } from 'jose';
import { idTokenAlgorithms, type OidcProvider } from './oidc-client.js';
import { providerRefusal } from './oidc-errors.js';
import type { OidcAccounts, SignInOrigin } from './oidc-sign-in.js';

/** A browser sign-in under way: PKCE verifier, nonce and the browser's binding hash, kept server side under the `state`. */
interface PendingLogin {
  verifier: string;
  nonce: string;
  /** SHA-256 of the random value in the browser's sign-in cookie: only that browser may finish. */
  binding: Buffer;
  expiresAt: number;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** A new random value for a browser's sign-in cookie (the route sets it; its hash is kept with the state). */
export function newBrowserBinding(): string {
  return randomBytes(32).toString('base64url');
}

type DeviceState =
  | { status: 'pending'; expiresAt: number; interval: number; controller: AbortController }
  | { status: 'complete'; expiresAt: number; result: LoginResult }
  | { status: 'failed'; expiresAt: number; error: AppError };

export interface DeviceStart {
  handle: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete?: string;
  expiresIn: number;
  interval: number;
}

export type DevicePoll = { status: 'pending'; interval: number } | ({ status: 'complete' } & LoginResult);

/**
 * The ID token's claims, completed from the UserInfo endpoint when the provider has one: many providers
 * put profile and group claims only there (an ID token of the code flow may carry just `sub`). The
 * ID token's own claims win, and the UserInfo answer must be about the same subject.
 */
async function withUserInfo(
  provider: OidcProvider,
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
): Promise<Record<string, unknown>> {
  const claims = tokens.claims();
  if (!claims || !tokens.id_token) throw unauthorized('the identity provider returned no ID token', { reason: 'no_id_token' });
  // openid-client checked iss, aud, azp, exp, iat and nonce; the signature is checked against the issuer's
  // JWKS here, with a key set that is fetched again when the provider rotates to a new key id.
  await jwtVerify(tokens.id_token, provider.keys, { algorithms: idTokenAlgorithms, issuer: provider.settings.issuer });
  if (!tokens.access_token || !provider.configuration.serverMetadata().userinfo_endpoint) return { ...claims };
  const userInfo = await client.fetchUserInfo(provider.configuration, tokens.access_token, claims.sub);
  return { ...userInfo, ...claims };
}

/** How long a browser sign-in may take between the redirect and the callback. */
const loginTtlMs = 10 * 60_000;
/** At most this many sign-ins may be under way (browser and device each), so unauthenticated callers can't grow memory. */
const maxPending = 10_000;

/**
 * The OpenID Connect flows: authorization code with PKCE (S256), `state` and `nonce` (single use,
 * ten minutes), and the device authorization grant, polled by the service (which holds the client
 * secret) while the client polls the service with an opaque handle.
 */
export class OidcFlows {
  private readonly logins = new Map<string, PendingLogin>();
  private readonly devices = new Map<string, DeviceState>();

  constructor(
    private readonly provider: OidcProvider,
    private readonly accounts: OidcAccounts,
    private readonly clock: Clock,
  ) {}

  /** The provider's authorization URL for a new browser sign-in, bound to the browser holding `binding` (its cookie). */
  async authorizationUrl(binding: string): Promise<string> {
    this.prune();
    if (this.logins.size >= maxPending) throw new AppError('RATE_LIMITED', 'too many sign-ins under way; try again later');
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    this.logins.set(state, { verifier, nonce, binding: digest(binding), expiresAt: this.clock() + loginTtlMs });
    const { settings, configuration } = this.provider;
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: settings.redirect_url,
      scope: settings.scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    }).href;
  }

  /**
   * Finishes a browser sign-in from the callback's query; the state is used up whatever the outcome.
   * `binding` is the browser's sign-in cookie: a callback from another browser (login CSRF: an attacker's
   * own code and state sent to a victim) or without the cookie is refused before the code is redeemed.
   */
  async callback(query: URLSearchParams, origin: SignInOrigin, binding: string | undefined): Promise<LoginResult> {
    const state = query.get('state') ?? '';
    const pending = this.logins.get(state);
    this.logins.delete(state);
    const username = 'oidc';
    const providerError = query.get('error');
    if (providerError)
      this.accounts.refuse(origin, username, unauthorized(`the identity provider refused: ${providerError}`, { reason: providerError.slice(0, 64) }));
    if (!pending || pending.expiresAt <= this.clock()) {
      this.accounts.refuse(origin, username, unauthorized('unknown or expired sign-in state; start the sign-in again', { reason: 'bad_state' }));
    }
    if (!binding || !timingSafeEqual(digest(binding), pending.binding)) {
      const message = 'this sign-in was not started in this browser (its sign-in cookie is missing or different); start the sign-in again from Pilothouse';
      this.accounts.refuse(origin, username, unauthorized(message, { reason: 'browser_mismatch' }));
    }
    const { settings, configuration } = this.provider;
    const currentUrl = new URL(settings.redirect_url);
    currentUrl.search = query.toString();
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.authorizationCodeGrant(
        configuration,
        currentUrl,
        { pkceCodeVerifier: pending.verifier, expectedState: state, expectedNonce: pending.nonce, idTokenExpected: true },
        { redirect_uri: settings.redirect_url },
      );
      claims = await withUserInfo(this.provider, tokens);
    } catch (error) {
      return this.accounts.refuse(origin, username, providerRefusal(error, 'invalid_response'));
    }
    return this.accounts.signIn(claims, origin);
  }

  /** Starts a device sign-in: the code to show and the handle to poll with. */
  async startDevice(origin: SignInOrigin): Promise<DeviceStart> {
    this.prune();
    if (this.devices.size >= maxPending) throw new AppError('RATE_LIMITED', 'too many sign-ins under way; try again later');
    const { settings, configuration } = this.provider;
    let response: client.DeviceAuthorizationResponse;
    try {
      response = await client.initiateDeviceAuthorization(configuration, { scope: settings.scopes.join(' ') });
    } catch (error) {
      throw providerRefusal(error, 'device_authorization_failed');
    }
    const handle = randomBytes(32).toString('base64url');
    const controller = new AbortController();
    const expiresAt = this.clock() + response.expires_in * 1000;
    const interval = response.interval ?? 5;
    this.devices.set(handle, { status: 'pending', expiresAt, interval, controller });
    void this.pollDevice(handle, response, controller.signal, origin);
    return {
      handle,
      userCode: response.user_code,
      verificationUri: response.verification_uri,
      verificationUriComplete: response.verification_uri_complete,
      expiresIn: response.expires_in,
      interval,
    };
  }

  /** The device sign-in's state; a finished one is handed out once. */
  device(handle: string): DevicePoll {
    const state = this.devices.get(handle);
    if (!state || state.expiresAt <= this.clock()) {
      this.devices.delete(handle);
      throw unauthorized('unknown or expired device sign-in; start again', { reason: 'unknown_device_handle' });
    }
    if (state.status === 'pending') return { status: 'pending', interval: state.interval };
    this.devices.delete(handle);
    if (state.status === 'failed') throw state.error;
    return { status: 'complete', ...state.result };
  }

  close(): void {
    for (const state of this.devices.values()) if (state.status === 'pending') state.controller.abort();
    this.devices.clear();
    this.logins.clear();
  }

  private async pollDevice(handle: string, response: client.DeviceAuthorizationResponse, signal: AbortSignal, origin: SignInOrigin): Promise<void> {
    const expiresAt = this.clock() + 60_000;
    try {
      const tokens = await client.pollDeviceAuthorizationGrant(this.provider.configuration, response, undefined, { signal });
      const claims = await withUserInfo(this.provider, tokens);
      const result = await this.accounts.signIn(claims, { ...origin, flow: 'device' });
      this.devices.set(handle, { status: 'complete', expiresAt, result });
    } catch (error) {
      if (signal.aborted) return;
      // Refusals of the account (unmapped, locked) are audited where they are made; the provider's here.
      const refusal = isAppError(error) ? error : providerRefusal(error, 'device_authorization_failed');
      if (!isAppError(error)) this.auditRefusal({ ...origin, flow: 'device' }, refusal);
      this.devices.set(handle, { status: 'failed', expiresAt, error: refusal });
    }
  }

  private auditRefusal(origin: SignInOrigin, refusal: AppError): void {
    try {
      this.accounts.refuse(origin, 'oidc', refusal);
    } catch {
      // refuse() audits and rethrows; the refusal is kept for the next poll instead.
    }
  }

  private prune(): void {
    const now = this.clock();
    for (const [state, pending] of this.logins) if (pending.expiresAt <= now) this.logins.delete(state);
    for (const [handle, device] of this.devices) {
      if (device.expiresAt > now) continue;
      if (device.status === 'pending') device.controller.abort();
      this.devices.delete(handle);
    }
  }
}
