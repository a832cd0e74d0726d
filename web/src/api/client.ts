import type { Session } from '@pilothouse/wire/types';
import { pathOf, type CallArgs, type LooseInit, type Method, type PathOf, type ResponseBody, type TypedCalls } from '@pilothouse/wire/calls';
import { ApiError, errorFromResponse, readJson, refreshedToken, sendRequest, withQuery, type Fetch, type Query } from '@pilothouse/wire/wire-client';
type SessionStorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Why the session went away: the user logged out, or the service refused the token (401). */
export type SessionEnd = 'logout' | 'expired';
type Listener = (session: Session | null, ended?: SessionEnd) => void;

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
  storage?: SessionStorageLike;
  baseUrl?: string;
}

const storageKey = 'pilothouse.session';

/** What every view of one client shares: the session and who listens to it. */
interface SessionState {
  session: Session | null;
  readonly listeners: Set<Listener>;
}

function readStored(storage: SessionStorageLike | undefined): Session | null {
  try {
    const parsed = JSON.parse(storage?.getItem(storageKey) ?? 'null') as Session | null;
    return parsed && typeof parsed.token === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The one way the UI talks to the service: bearer token on every call, token kept in
 * sessionStorage and replaced when the service hands out a refreshed one, 401 ends the session,
 * non-2xx answers thrown as ApiError with the contract body `{error, code, details}`.
 */
export class ApiClient implements TypedCalls {
  private state: SessionState;
  private readonly fetcher: Fetch;
  private readonly storage: SessionStorageLike | undefined;
  private readonly baseUrl: string;
  private boundCluster: string | undefined;

  constructor(options: ClientOptions = {}) {
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.storage = options.storage;
    this.baseUrl = options.baseUrl ?? '';
    this.state = { session: readStored(this.storage), listeners: new Set() };
  }

  private get session(): Session | null {
    return this.state.session;
  }

  get current(): Session | null {
    return this.session;
  }

  /** The cluster every request of this view names (`?cluster=`); undefined: the home cluster. */
  get cluster(): string | undefined {
    return this.boundCluster;
  }

  /**
   * A view of this client bound to one cluster (ADR 0035): every request it sends carries
   * `?cluster=NAME` (routes that are not cluster-facing ignore it) unless the request names its own.
   * The session is shared: a refreshed token, a logout or a 401 on any view is seen by all.
   * `undefined` or '' is the home cluster (no parameter).
   */
  forCluster(cluster: string | undefined): ApiClient {
    const view = new ApiClient({ fetch: this.fetcher, storage: this.storage, baseUrl: this.baseUrl });
    view.state = this.state;
    view.boundCluster = cluster || undefined;
    return view;
  }

  /** Called with the new session (or null and why) whenever it changes. */
  subscribe(listener: Listener): () => void {
    this.state.listeners.add(listener);
    return () => this.state.listeners.delete(listener);
  }

  async login(username: string, password: string): Promise<Session> {
    const body = username.trim() ? { username: username.trim(), password } : { password };
    const session = await this.call('POST', '/api/auth/login', { body });
    this.setSession(session);
    return session;
  }

  /**
   * Ends the session on the service (best effort) and locally; resolves with the identity provider's
   * logout URL when the session came from SSO and the provider offers RP-initiated logout.
   */
  async logout(): Promise<string | undefined> {
    let endSessionUrl: string | undefined;
    try {
      if (this.session) endSessionUrl = (await this.call('POST', '/api/auth/logout')).endSessionUrl;
    } catch {
      // the local session ends anyway
    }
    this.setSession(null, 'logout');
    return endSessionUrl;
  }

  /**
   * Takes the session an SSO sign-in hands over in the URL fragment of `/login/sso`
   * (`#token=…&expires_at=…&username=…&role=…`; a fragment never reaches servers or logs).
   */
  adoptSsoFragment(fragment: string): boolean {
    const values = new URLSearchParams(fragment.replace(/^#/, ''));
    const token = values.get('token');
    const expiresAt = values.get('expires_at');
    const username = values.get('username');
    const role = values.get('role');
    if (!token || !expiresAt || !username || !role) return false;
    this.setSession({ token, expires_at: expiresAt, username, role } as Session);
    return true;
  }

  /** Sends a request; resolves with the 2xx response, otherwise throws ApiError. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const sentToken = this.session?.token;
    const response = await this.send(method, path, options, sentToken);
    this.takeRefreshedToken(response);
    if (response.ok) return response;
    const failure = await errorFromResponse(response);
    if (response.status === 401 && sentToken && sentToken === this.session?.token) this.setSession(null, 'expired');
    throw failure;
  }

  /** One fetch with the headers every call carries (wire-client's sendRequest). */
  private send(method: string, path: string, options: RequestOptions, token: string | undefined): Promise<Response> {
    const { query, ...rest } = options;
    const scoped = this.boundCluster && !query?.cluster ? { ...query, cluster: this.boundCluster } : query;
    return sendRequest(this.fetcher, { ...rest, method, token, url: this.baseUrl + withQuery(path, scoped) });
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

  private takeRefreshedToken(response: Response): void {
    const refreshed = refreshedToken(response);
    if (!refreshed || !this.session) return;
    this.setSession({ ...this.session, token: refreshed.token, expires_at: refreshed.expiresAt ?? this.session.expires_at });
  }

  private setSession(session: Session | null, ended?: SessionEnd): void {
    this.state.session = session;
    if (session) this.storage?.setItem(storageKey, JSON.stringify(session));
    else this.storage?.removeItem(storageKey);
    for (const listener of this.state.listeners) listener(session, ended);
  }
}

export { ApiError };
