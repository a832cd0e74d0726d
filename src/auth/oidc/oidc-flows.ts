import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Clock } from '../../clock.js';
import { AppError, isAppError, unauthorized } from '../../errors.js';
import type { LoginResult } from '../login/login.js';
import { jwtVerify } from 'jose';
import { idTokenAlgorithms, type OidcProvider } from './oidc-client.js';
import { clientNetwork } from './address-prefix.js';
import { providerRefusal } from './oidc-errors.js';
import { signInsPerBrowser, type PendingSignIn, type SignInSeal } from './oidc-sign-in-seal.js';
import type { OidcAccounts, SignInOrigin } from './oidc-sign-in.js';
import type { SealedTokenKind, SealedTokensStore } from '../../store/sealed-tokens-store.js';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** A browser sign-in's start: where to send the browser, and the sign-in cookie's new value. */
export interface BrowserStart {
  url: string;
  cookie: string;
}

/** The store kind counting the device sign-ins under way of the caller's address (IPv6: its /64), as a hash: no address is stored. */
function deviceSourceKind(origin: SignInOrigin): SealedTokenKind {
  return `oidc-device-from:${digest(clientNetwork(origin.source ?? '')).toString('base64url')}`;
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
export const loginTtlMs = 10 * 60_000;
/** At most this many device sign-ins may be under way, so unauthenticated callers can't grow the store. */
const maxPending = 10_000;
/** Device sign-ins one client address may have under way: far below {@link maxPending}, so one address cannot use it up for others. */
export const maxPendingPerAddress = 10;

const tooMany = (message: string): AppError => new AppError('RATE_LIMITED', message);

/**
 * The OpenID Connect flows: authorization code with PKCE (S256), `state` and `nonce` (single use,
 * ten minutes), and the device authorization grant, polled by the service (which holds the client
 * secret) while the client polls the service with an opaque handle. A browser sign-in keeps no server
 * state before the provider answers: its verifier, nonce and state are sealed in the browser's sign-in
 * cookie (src/auth/oidc/oidc-sign-in-seal.ts), so it completes on any replica sharing the signing key and
 * only in the browser that started it; a state is recorded in the shared store when its callback
 * arrives, so it is used once across replicas. Device sign-ins live in the shared store (ADR 0032),
 * capped per client address and in all; each is polled at the provider by the replica that started it.
 */
export class OidcFlows {
  /** This replica's device polls at the provider, to stop them at expiry or shutdown. */
  private readonly polls = new Map<string, { controller: AbortController; expiresAt: number }>();

  private readonly store: SealedTokensStore;
  private readonly seal: SignInSeal;

  constructor(
    private readonly provider: OidcProvider,
    private readonly accounts: OidcAccounts,
    private readonly clock: Clock,
    /** Device sign-ins and used states (shared by replicas), and the sign-in cookie's seal. */
    state: { store: SealedTokensStore; seal: SignInSeal },
  ) {
    this.store = state.store;
    this.seal = state.seal;
  }

  /**
   * The provider's authorization URL for a new browser sign-in, and the sign-in cookie sealing it (with the
   * browser's other sign-ins under way, from `cookie`, so two tabs can both finish). Nothing is stored.
   */
  async authorizationUrl(cookie: string | undefined): Promise<BrowserStart> {
    const now = this.clock();
    const expiresAt = now + loginTtlMs;
    const pending: PendingSignIn = { state: this.seal.newState(expiresAt), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(), expiresAt };
    const opened = cookie ? await this.seal.open(cookie, now) : undefined;
    const earlier = opened?.sealed === 'valid' ? opened.entries : [];
    const sealed = await this.seal.seal([...earlier, pending].slice(-signInsPerBrowser), now);
    const { settings, configuration } = this.provider;
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: settings.redirect_url,
      scope: settings.scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    }).href;
    return { url, cookie: sealed };
  }

  /**
   * Finishes a browser sign-in from the callback's query. Once the state and the cookie pass, the state is
   * used up (across replicas) before the code is redeemed, whatever the provider answers then. `cookie` is the browser's sign-in cookie: a callback from another browser (login CSRF: an attacker's
   * own code and state sent to a victim), without the cookie, or with an altered or expired one is
   * refused before the code is redeemed.
   */
  async callback(query: URLSearchParams, origin: SignInOrigin, cookie: string | undefined): Promise<LoginResult> {
    const state = query.get('state') ?? '';
    const username = 'oidc';
    const providerError = query.get('error');
    if (providerError)
      this.accounts.refuse(origin, username, unauthorized(`the identity provider refused: ${providerError}`, { reason: providerError.slice(0, 64) }));
    const expiresAt = await this.liveState(state, origin);
    const pending = await this.pendingOf(cookie, state, origin);
    if (!(await this.store.claim('oidc-login', state, expiresAt))) this.refuseState(origin);
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

  /** The expiry of a state this service made, unexpired and not used yet; refused (audited) otherwise. */
  private async liveState(state: string, origin: SignInOrigin): Promise<number> {
    const now = this.clock();
    const expiresAt = this.seal.stateExpiry(state);
    if (expiresAt === undefined) this.refuseState(origin);
    if (expiresAt <= now)
      this.accounts.refuse(origin, 'oidc', unauthorized('this sign-in took longer than ten minutes; start the sign-in again', { reason: 'sign_in_expired' }));
    await this.store.prune(now);
    if (await this.store.peek('oidc-login', state, now)) this.refuseState(origin);
    return expiresAt;
  }

  private refuseState(origin: SignInOrigin): never {
    return this.accounts.refuse(origin, 'oidc', unauthorized('unknown or expired sign-in state; start the sign-in again', { reason: 'bad_state' }));
  }

  /** The sign-in of `state` in the browser's sealed cookie; refused (audited) when the cookie is missing, altered, expired or holds another. */
  private async pendingOf(cookie: string | undefined, state: string, origin: SignInOrigin): Promise<PendingSignIn> {
    const opened = cookie ? await this.seal.open(cookie, this.clock()) : undefined;
    if (opened?.sealed === 'invalid')
      this.accounts.refuse(
        origin,
        'oidc',
        unauthorized('the sign-in cookie is not one Pilothouse sealed; start the sign-in again', { reason: 'bad_sign_in_cookie' }),
      );
    if (opened?.sealed === 'expired')
      this.accounts.refuse(origin, 'oidc', unauthorized('the sign-in cookie has expired; start the sign-in again', { reason: 'sign_in_expired' }));
    const pending = opened?.sealed === 'valid' ? opened.entries.find((entry) => entry.state === state) : undefined;
    if (pending) return pending;
    const message = 'this sign-in was not started in this browser (its sign-in cookie is missing or different); start the sign-in again from Pilothouse';
    return this.accounts.refuse(origin, 'oidc', unauthorized(message, { reason: 'browser_mismatch' }));
  }

  /** Starts a device sign-in: the code to show and the handle to poll with. */
  async startDevice(origin: SignInOrigin): Promise<DeviceStart> {
    await this.prune();
    const from = deviceSourceKind(origin);
    if ((await this.store.count(from, this.clock())) >= maxPendingPerAddress)
      throw tooMany(`too many device sign-ins under way from this address (at most ${maxPendingPerAddress}); finish one or try again later`);
    if ((await this.store.count('oidc-device', this.clock())) >= maxPending) throw tooMany('too many sign-ins under way; try again later');
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
    await this.store.put(from, handle, {}, expiresAt);
    this.polls.set(handle, { controller, expiresAt });
    void this.pollDevice(handle, response, controller.signal, origin).finally(() => this.store.take(from, handle, this.clock()).catch(() => undefined));
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
