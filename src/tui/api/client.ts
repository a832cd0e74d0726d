import { pathOf, type CallArgs, type LooseInit, type Method, type PathOf, type ResponseBody, type TypedCalls } from '@pilothouse/wire/calls';
import { ApiError, errorFromResponse, readJson, refreshedToken, sendRequest, withQuery, type Query } from '@pilothouse/wire/wire-client';

/** The session a client presents: a bearer token and when it expires (ms since the epoch). */
export interface ClientSession {
  token: string;
  expiresAt?: number;
}

export interface ApiClientOptions {
  /** The session to present (absent: the service runs without authentication). */
  session?: ClientSession;
  /** Asked on a 401: resolves with a new session once the user signed in again (the login prompt), or undefined to give up. */
  signIn?: () => Promise<ClientSession | undefined>;
  /** Refresh through POST /api/auth/refresh when a token expires within this window (ms); the service's default is 15 minutes. */
  refreshWindowMs?: number;
  now?: () => number;
  /** The embedded service's per-process token (`pilothouse tui` without --url), sent on every request. */
  embedToken?: string;
}

/**
 * The terminal UI's one way to the service: Pilothouse's own HTTP API, with the bearer token,
 * refreshes inside the refresh window, and a 401 that goes back to the login prompt.
 */
export class ApiClient implements TypedCalls {
  private session?: ClientSession;
  private refreshing?: Promise<void>;
  private currentCluster?: string;

  constructor(
    readonly baseUrl: string,
    private readonly options: ApiClientOptions = {},
  ) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
    this.session = options.session;
  }

  /** The current bearer token ('' without authentication). */
  get token(): string {
    return this.session?.token ?? '';
  }

  /** Headers every request to the service carries besides the bearer token (the embedded service's token). */
  serviceHeaders(): Record<string, string> {
    return this.options.embedToken ? { 'X-Pilothouse-Embed-Token': this.options.embedToken } : {};
  }

  /** Replaces the session (after a login). */
  useSession(session: ClientSession | undefined): void {
    this.session = session;
  }

  /** The cluster every cluster-facing request names (`?cluster=`); undefined: none named, the home cluster. */
  get cluster(): string | undefined {
    return this.currentCluster;
  }

  /** Switches the cluster (`:ctx`, `--cluster`): from now on every request, stream and socket names it. */
  useCluster(name: string | undefined): void {
    this.currentCluster = name;
  }

  /**
   * An absolute URL of an API path with a query (undefined values left out). Every request, stream and WebSocket
   * of the terminal UI is built here, so this is the one place the current cluster is added (`?cluster=`, ADR 0035);
   * routes that are about no cluster ignore it, as for the web client (ADR 0037).
   */
  url(path: string, query: Query = {}): string {
    return new URL(this.baseUrl + withQuery(path, { ...query, cluster: this.currentCluster })).toString();
  }

  /**
   * A JSON call bound to the contract: the method and the path template pick the path parameters, the query, the
   * body and the answer's type (`call('GET', '/api/k8s/{resource}', { path: { resource: 'pods' } })`); throws
   * ApiError on a non-2xx answer.
   */
  async call<M extends Method, P extends PathOf<M>>(method: M, path: P, ...args: CallArgs<M, P>): Promise<ResponseBody<M, P>> {
    const { path: parameters, ...options } = (args[0] ?? {}) as LooseInit;
    return ((await readJson(await this.send(method, pathOf(path, parameters), options))) ?? {}) as ResponseBody<M, P>;
  }

  /** A text request (describe, YAML, logs). */
  async text(path: string, query: Query = {}): Promise<string> {
    return (await this.send('GET', path, { query })).text();
  }

  /** A GET of a file (a report download): the answer, for its headers and bytes. */
  async file(path: string): Promise<Response> {
    return this.send('GET', path, { accept: '*/*' });
  }

  /** A streaming GET (SSE or chunked logs); the caller reads `body` until it aborts `signal`. */
  async stream(path: string, query: Query, signal: AbortSignal): Promise<Response> {
    return this.send('GET', path, { query, signal, accept: 'text/event-stream' });
  }

  private async send(method: string, path: string, options: { query?: Query; body?: unknown; signal?: AbortSignal; accept?: string }): Promise<Response> {
    await this.refreshWhenDue(path);
    let response = await this.fetchOnce(method, path, options);
    if (response.status === 401 && this.options.signIn) {
      const session = await this.options.signIn();
      if (session) {
        this.session = session;
        response = await this.fetchOnce(method, path, options);
      }
    }
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  private async fetchOnce(method: string, path: string, options: { query?: Query; body?: unknown; signal?: AbortSignal; accept?: string }): Promise<Response> {
    const { query, ...rest } = options;
    const request = { ...rest, method, url: this.url(path, query), token: this.session?.token, headers: this.serviceHeaders() };
    const response = await sendRequest((input, init) => fetch(input, init), request);
    this.takeRefreshedToken(response);
    return response;
  }

  /** The service may hand a refreshed token on any answer inside the window (X-Refreshed-Token). */
  private takeRefreshedToken(response: Response): void {
    const refreshed = refreshedToken(response);
    if (!refreshed || !this.session) return;
    const expires = Date.parse(refreshed.expiresAt ?? '');
    this.session = { token: refreshed.token, expiresAt: Number.isNaN(expires) ? undefined : expires };
  }

  private async refreshWhenDue(path: string): Promise<void> {
    const expiresAt = this.session?.expiresAt;
    if (expiresAt === undefined || path.startsWith('/api/auth/')) return;
    const now = (this.options.now ?? Date.now)();
    if (expiresAt - now > (this.options.refreshWindowMs ?? 900_000) || expiresAt <= now) return;
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = undefined;
    });
    await this.refreshing;
  }

  /** POST /api/auth/refresh; a refusal (outside the server's window) leaves the session as it is. */
  async refresh(): Promise<void> {
    try {
      const renewed = await this.call('POST', '/api/auth/refresh');
      this.session = { token: renewed.token, expiresAt: Date.parse(renewed.expires_at) };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 401) throw error;
    }
  }
}
