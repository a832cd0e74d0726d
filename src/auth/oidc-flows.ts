import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { Clock } from '../clock.js';
import { AppError, isAppError, unauthorized } from '../errors.js';
import type { LoginResult } from './login.js';
import { jwtVerify } from 'jose';
import { idTokenAlgorithms, type OidcProvider } from './oidc-client.js';
import { providerRefusal } from './oidc-errors.js';
import type { OidcAccounts, SignInOrigin } from './oidc-sign-in.js';
import type { SealedTokensStore } from '../store/sealed-tokens-store.js';

/** A browser sign-in under way: PKCE verifier, nonce and the browser's binding hash, kept in the shared store under the `state`. */
interface PendingLogin {
  verifier: string;
  nonce: string;
  /** SHA-256 (base64url) of the random value in the browser's sign-in cookie: only that browser may finish. */
  binding: string;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** A new random value for a browser's sign-in cookie (the route sets it; its hash is kept with the state). */
export function newBrowserBinding(): string {
  return randomBytes(32).toString('base64url');
}

/** A device sign-in's state in the shared store (under its handle): any replica answers the client's polls. */
type DeviceState =
  | { status: 'pending'; interval: number }
  | { status: 'complete'; result: LoginResult }
  | { status: 'failed'; error: { code: AppError['code']; message: string; details: AppError['details'] } };

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
 * secret) while the client polls the service with an opaque handle. Sign-ins under way live in the
 * shared store (ADR 0032): a sign-in started on one replica completes on any (the browser's cookie
 * binding still applies); a device sign-in is polled at the provider by the replica that started it.
 */
export class OidcFlows {
  /** This replica's device polls at the provider, to stop them at expiry or shutdown. */
  private readonly polls = new Map<string, { controller: AbortController; expiresAt: number }>();

  constructor(
    private readonly provider: OidcProvider,
    private readonly accounts: OidcAccounts,
    private readonly clock: Clock,
    private readonly store: SealedTokensStore,
  ) {}

  /** The provider's authorization URL for a new browser sign-in, bound to the browser holding `binding` (its cookie). */
  async authorizationUrl(binding: string): Promise<string> {
    await this.prune();
    if ((await this.store.count('oidc-login', this.clock())) >= maxPending) throw new AppError('RATE_LIMITED', 'too many sign-ins under way; try again later');
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    const pending: PendingLogin = { verifier, nonce, binding: digest(binding).toString('base64url') };
    await this.store.put('oidc-login', state, pending, this.clock() + loginTtlMs);
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
    const pending = state ? await this.store.take<PendingLogin>('oidc-login', state, this.clock()) : undefined;
    const username = 'oidc';
    const providerError = query.get('error');
    if (providerError)
      this.accounts.refuse(origin, username, unauthorized(`the identity provider refused: ${providerError}`, { reason: providerError.slice(0, 64) }));
    if (!pending) {
      this.accounts.refuse(origin, username, unauthorized('unknown or expired sign-in state; start the sign-in again', { reason: 'bad_state' }));
    }
    if (!binding || !timingSafeEqual(digest(binding), Buffer.from(pending.binding, 'base64url'))) {
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
    await this.prune();
    if ((await this.store.count('oidc-device', this.clock())) >= maxPending) throw new AppError('RATE_LIMITED', 'too many sign-ins under way; try again later');
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
    await this.store.put('oidc-device', handle, { status: 'pending', interval } satisfies DeviceState, expiresAt);
    this.polls.set(handle, { controller, expiresAt });
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

  /** The device sign-in's state, on any replica; a finished one is handed out once (one conditional DELETE). */
  async device(handle: string): Promise<DevicePoll> {
    const now = this.clock();
    const peeked = await this.store.peek<DeviceState>('oidc-device', handle, now);
    if (peeked?.status === 'pending') return { status: 'pending', interval: peeked.interval };
    const state = peeked && (await this.store.take<DeviceState>('oidc-device', handle, now));
    if (!state || state.status === 'pending') throw unauthorized('unknown or expired device sign-in; start again', { reason: 'unknown_device_handle' });
    if (state.status === 'failed') throw new AppError(state.error.code, state.error.message, state.error.details);
    return { status: 'complete', ...state.result };
  }

  close(): void {
    for (const poll of this.polls.values()) poll.controller.abort();
    this.polls.clear();
  }

  private async pollDevice(handle: string, response: client.DeviceAuthorizationResponse, signal: AbortSignal, origin: SignInOrigin): Promise<void> {
    const expiresAt = this.clock() + 60_000;
    try {
      const tokens = await client.pollDeviceAuthorizationGrant(this.provider.configuration, response, undefined, { signal });
      const claims = await withUserInfo(this.provider, tokens);
      const result = await this.accounts.signIn(claims, { ...origin, flow: 'device' });
      await this.store.put('oidc-device', handle, { status: 'complete', result } satisfies DeviceState, expiresAt);
    } catch (error) {
      if (signal.aborted) return;
      // Refusals of the account (unmapped, locked) are audited where they are made; the provider's here.
      const refusal = isAppError(error) ? error : providerRefusal(error, 'device_authorization_failed');
      if (!isAppError(error)) this.auditRefusal({ ...origin, flow: 'device' }, refusal);
      const failed: DeviceState = { status: 'failed', error: { code: refusal.code, message: refusal.message, details: refusal.details } };
      await this.store.put('oidc-device', handle, failed, expiresAt).catch(() => undefined);
    } finally {
      this.polls.delete(handle);
    }
  }

  private auditRefusal(origin: SignInOrigin, refusal: AppError): void {
    try {
      this.accounts.refuse(origin, 'oidc', refusal);
    } catch {
      // refuse() audits and rethrows; the refusal is kept for the next poll instead.
    }
  }

  private async prune(): Promise<void> {
    const now = this.clock();
    for (const [handle, poll] of this.polls) {
      if (poll.expiresAt > now) continue;
      poll.controller.abort();
      this.polls.delete(handle);
    }
    await this.store.prune(now);
  }
}
