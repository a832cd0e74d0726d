import type { Session } from '@pilothouse/wire/types';
import { pathOf, type CallArgs, type LooseInit, type Method, type PathOf, type ResponseBody, type TypedCalls } from '@pilothouse/wire/calls';
import { ApiError, errorFromResponse, readJson, sendRequest, tokenExpiresHeader, withQuery, type Fetch, type Query } from '@pilothouse/wire/wire-client';
/** The signed-in user as the web knows it: the token itself stays in the HttpOnly session cookie (ADR 0050). */
export interface SignedIn {
  username: string;
  role: Session['role'];
  /** When the current token expires (a refresh moves it). */
  expires_at: string;
  /** The session's absolute end (`authorization.jwt.max_session`), which no refresh extends; null when it has none. */
  session_ends_at: string | null;
}

/**
 * Why the session went away: the user logged out (here or in another tab), or the service refused the session
 * with a reason (`details.reason` of its 401: `revoked`, `expired`, `locked`, `disabled`, `role_changed`, …).
 */
export type SessionEnd = 'logout' | 'expired' | 'revoked' | 'role_changed' | 'locked' | 'disabled' | 'ended';
type Listener = (session: SignedIn | null, ended?: SessionEnd) => void;

/** What the tabs of one browser tell each other about the shared session (a BroadcastChannel). */
export interface SessionChannel {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

export interface RequestOptions {
  query?: Query;
  /** JSON-encoded request body. */
  body?: unknown;
  /** A text body sent as is (instead of `body`), with `contentType`. */
  text?: string;
  contentType?: string;
  signal?: AbortSignal;
  accept?: string;
}

export interface ClientOptions {
  fetch?: Fetch;
  /** Tells the other tabs of a login or logout (`new BroadcastChannel('pilothouse.session')` in the browser). */
  channel?: SessionChannel;
  baseUrl?: string;
}

/** The header every request carries: a state-changing request made with the session cookie needs it (CSRF defence). */
export const csrfHeader = 'X-Pilothouse-CSRF';
const roleHeader = 'X-Pilothouse-Role';

/** The session as the UI shows it: who is signed in, why the last session ended, whether it is still being looked up. */
export interface SessionView {
  session: SignedIn | null;
  ended: SessionEnd | undefined;
  restoring: boolean;
  /** The role an admin changed this session's user from, until the user dismisses the notice. */
  roleChangedFrom?: string;
}

/** What every view of one client shares: the session, whether it is still being looked up, and who listens. */
interface SessionState {
  /** The latest {@link SessionView}, replaced (never changed) at every change, for React's useSyncExternalStore. */
  view: SessionView;
  session: SignedIn | null;
  /** Bumped at every change, so a 401 to a request sent under an older session ends nothing. */
  generation: number;
  restoring: boolean;
  roleChangedFrom?: string;
  readonly listeners: Set<Listener>;
}

const knownEnds = new Set<SessionEnd>(['expired', 'revoked', 'role_changed', 'locked', 'disabled']);

/** The reason a 401 names, as the sign-in page explains it. */
function endOf(failure: ApiError): SessionEnd {
  const reason = failure.details.reason;
  if (reason === 'session_max_lifetime') return 'expired';
  return typeof reason === 'string' && knownEnds.has(reason as SessionEnd) ? (reason as SessionEnd) : 'ended';
}

/**
 * The one way the UI talks to the service. The browser's credential is the HttpOnly session cookie the service
 * sets at sign-in (shared by every tab; no script reads the token); every request carries `X-Pilothouse-CSRF`;
 * a 401 ends the session with the reason the service gave; a login or logout is told to the other tabs.
 * Non-2xx answers are thrown as ApiError with the contract body `{error, code, details}`.
 */
export class ApiClient implements TypedCalls {
  private state: SessionState;
  private readonly fetcher: Fetch;
  private readonly channel: SessionChannel | undefined;
  private readonly baseUrl: string;
  private boundCluster: string | undefined;

  constructor(options: ClientOptions = {}) {
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.channel = options.channel;
    this.baseUrl = options.baseUrl ?? '';
    this.state = { session: null, generation: 0, restoring: false, listeners: new Set(), view: { session: null, ended: undefined, restoring: false } };
    if (this.channel) this.channel.onmessage = (event) => this.heard(event.data);
  }

  private get session(): SignedIn | null {
    return this.state.session;
  }

  get current(): SignedIn | null {
    return this.session;
  }

  /** The session, why the last one ended and whether it is being looked up (the same object until something changes). */
  get view(): SessionView {
    return this.state.view;
  }

  /** True while {@link restore} asks the service whether this browser is signed in. */
  get restoring(): boolean {
    return this.state.restoring;
  }

  /** The cluster every request of this view names (`?cluster=`); undefined: the home cluster. */
  get cluster(): string | undefined {
    return this.boundCluster;
  }

  /**
   * A view of this client bound to one cluster (ADR 0035): every request it sends carries
   * `?cluster=NAME` (routes that are not cluster-facing ignore it) unless the request names its own.
   * The session is shared: a refreshed expiry, a logout or a 401 on any view is seen by all.
   * `undefined` or '' is the home cluster (no parameter).
   */
  forCluster(cluster: string | undefined): ApiClient {
    const view = new ApiClient({ fetch: this.fetcher, baseUrl: this.baseUrl });
    view.state = this.state;
    view.boundCluster = cluster || undefined;
    return view;
  }

  /** Called with the new session (or null and why) whenever it changes. */
  subscribe(listener: Listener): () => void {
    this.state.listeners.add(listener);
    return () => this.state.listeners.delete(listener);
  }

  /**
   * Asks the service who this browser is signed in as (`GET /api/auth/me` with the session cookie): a new tab,
   * a reload and the end of an SSO sign-in start here. Resolves with the session, or null when there is none.
   */
  async restore(): Promise<SignedIn | null> {
    this.state.restoring = true;
    this.notify(undefined);
    try {
      return await this.lookUp();
    } finally {
      this.state.restoring = false;
      this.notify(undefined);
    }
  }

  /** `GET /api/auth/me`: the session the cookie carries (kept unless a login or logout came in between). */
  private async lookUp(): Promise<SignedIn | null> {
    const generation = this.state.generation;
    let found: SignedIn | null = null;
    try {
      const response = await this.send('GET', '/api/auth/me', {});
      if (response.ok) found = (await readJson(response)) as SignedIn;
    } catch {
      // offline: signed out until the user signs in
    }
    if (generation === this.state.generation && (found || this.session)) this.setSession(found);
    return this.session;
  }

  async login(username: string, password: string): Promise<SignedIn | null> {
    const body = username.trim() ? { username: username.trim(), password } : { password };
    await this.call('POST', '/api/auth/login', { body });
    const session = await this.lookUp();
    this.channel?.postMessage({ type: 'login' });
    return session;
  }

  /**
   * Ends the session on the service (best effort) and locally, in every tab; resolves with the identity
   * provider's logout URL when the session came from SSO and the provider offers RP-initiated logout.
   */
  async logout(): Promise<string | undefined> {
    let endSessionUrl: string | undefined;
    try {
      if (this.session) endSessionUrl = (await this.call('POST', '/api/auth/logout')).endSessionUrl;
    } catch {
      // the local session ends anyway
    }
    this.setSession(null, 'logout');
    this.channel?.postMessage({ type: 'logout' });
    return endSessionUrl;
  }

  /** Another tab signed in or out: follow it. */
  private heard(message: unknown): void {
    const type = (message as { type?: unknown } | null)?.type;
    if (type === 'logout') this.setSession(null, 'logout');
    if (type === 'login') void this.lookUp();
  }

  /** Sends a request; resolves with the 2xx response, otherwise throws ApiError. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const generation = this.state.generation;
    const response = await this.send(method, path, options);
    this.takeRefreshedExpiry(response);
    this.takeRole(response);
    if (response.ok) return response;
    const failure = await errorFromResponse(response);
    if (response.status === 401 && this.session && generation === this.state.generation) this.setSession(null, endOf(failure));
    throw failure;
  }

  /** One fetch with the headers every call carries (wire-client's sendRequest); the cookie goes along (same origin). */
  private send(method: string, path: string, options: RequestOptions): Promise<Response> {
    const { query, ...rest } = options;
    const scoped = this.boundCluster && !query?.cluster ? { ...query, cluster: this.boundCluster } : query;
    return sendRequest(this.fetcher, { ...rest, method, headers: { [csrfHeader]: '1' }, url: this.baseUrl + withQuery(path, scoped) });
  }

  /**
   * A JSON call bound to the contract: the method and the path template pick the path parameters, the query,
   * the body and the answer's type (`call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' } })`).
   */
  async call<M extends Method, P extends PathOf<M>>(method: M, path: P, ...args: CallArgs<M, P>): Promise<ResponseBody<M, P>> {
    const { path: parameters, ...options } = (args[0] ?? {}) as LooseInit;
    return (await readJson(await this.request(method, pathOf(path, parameters), options))) as ResponseBody<M, P>;
  }

  async text(path: string, options: RequestOptions = {}): Promise<string> {
    const response = await this.request('GET', path, { accept: 'text/plain, */*', ...options });
    return response.text();
  }

  /** The service refreshed the cookie's token: its new expiry (the token itself never reaches scripts). */
  private takeRefreshedExpiry(response: Response): void {
    const expiresAt = response.headers.get(tokenExpiresHeader);
    if (!expiresAt || !this.session || expiresAt === this.session.expires_at) return;
    this.state.session = { ...this.session, expires_at: expiresAt };
    this.notify(undefined);
  }

  /** An admin changed the user's role: the UI follows the new one and says so (`X-Pilothouse-Role`). */
  private takeRole(response: Response): void {
    const role = response.headers.get(roleHeader) as SignedIn['role'] | null;
    const session = this.session;
    if (!role || !session || role === session.role) return;
    this.state.session = { ...session, role };
    this.state.roleChangedFrom = session.role;
    this.notify(undefined);
  }

  /** Hides the notice of a role change. */
  dismissRoleChange(): void {
    this.state.roleChangedFrom = undefined;
    this.notify(undefined);
  }

  private setSession(session: SignedIn | null, ended?: SessionEnd): void {
    this.state.roleChangedFrom = undefined;
    this.state.session = session;
    this.state.generation += 1;
    this.notify(ended);
  }

  private notify(ended: SessionEnd | undefined): void {
    const { session, restoring, view, roleChangedFrom } = this.state;
    this.state.view = { session, restoring, ended: session ? undefined : (ended ?? view.ended), roleChangedFrom };
    for (const listener of this.state.listeners) listener(this.state.session, ended);
  }
}

export { ApiError };
