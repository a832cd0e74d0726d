// Typed calls bound to the contract (the openapi-fetch idea, written here): a call names the method and the
// path template of the generated `paths` (`'/api/k8s/{resource}/{name}'`), and the pair picks the path
// parameters, the query, the JSON request body and the JSON answer, so a wrong pairing fails to compile.
// Both clients (web/src/api/client.ts, src/tui/api/client.ts) implement `call` with `pathOf` below.
// Erasable TypeScript only: Node runs this file as it is (docs/adr/0036, docs/adr/0044).
import type { paths } from './types.ts';

/** The HTTP methods the contract uses. */
export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';

/** The path templates that have an operation for `M`. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<Lowercase<M>, object> ? P : never;
}[keyof paths];

/** The operation of `M P` in the generated `operations`. */
export type Operation<M extends Method, P extends PathOf<M>> = paths[P][Lowercase<M> & keyof paths[P]];

type Parameters<O> = O extends { parameters: infer Declared } ? Declared : never;
type PathParameters<O> = Parameters<O> extends { path: infer Declared } ? Declared : never;
/**
 * A query value as a call may give it (it travels as text anyway): a number or a boolean where the contract declares
 * free text, a boolean where it declares the text of one (`"true" | "false"`).
 */
type QueryValue<T> = string extends T ? T | number | boolean : [Extract<T, 'true'>] extends [never] ? T : T | boolean;
type WideQuery<Query> = { [K in keyof Query]: QueryValue<Query[K]> };
type QueryParameters<O> = Parameters<O> extends { query?: infer Declared } ? WideQuery<Exclude<Declared, undefined>> : never;
type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Body<O> = O extends { requestBody?: infer Request } ? JsonContent<NonNullable<Request>> : never;
type BodyRequired<O> = O extends { requestBody: object } ? true : false;
type Success<R> = R[200 & keyof R] | R[201 & keyof R] | R[202 & keyof R];

/** The JSON request body of `M P` (never: it takes none). */
export type RequestBody<M extends Method, P extends PathOf<M>> = Body<Operation<M, P>>;

/** The JSON body of the 2xx answer of `M P`. */
export type ResponseBody<M extends Method, P extends PathOf<M>> =
  Operation<M, P> extends { responses: infer Responses } ? JsonContent<Success<Responses>> : never;

/** The query `M P` declares (never: none). */
export type QueryOf<M extends Method, P extends PathOf<M>> = QueryParameters<Operation<M, P>>;

type PathPart<O> = [PathParameters<O>] extends [never] ? { path?: never } : { path: PathParameters<O> };
type QueryPart<O> = [QueryParameters<O>] extends [never]
  ? { query?: never }
  : Parameters<O> extends { query: object }
    ? { query: QueryParameters<O> }
    : { query?: QueryParameters<O> };
type BodyPart<O> = [Body<O>] extends [never] ? { body?: never } : BodyRequired<O> extends true ? { body: Body<O> } : { body?: Body<O> };

/** What a call of `M P` takes besides method and path: `path` parameters, `query`, JSON `body`, `signal`. */
export type CallInit<M extends Method, P extends PathOf<M>> = PathPart<Operation<M, P>> &
  QueryPart<Operation<M, P>> &
  BodyPart<Operation<M, P>> & { signal?: AbortSignal };

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** A rest parameter of one `init` object, optional when nothing in it is required. */
export type InitArgs<Init> = [RequiredKeys<Init>] extends [never] ? [init?: Init] : [init: Init];

/** The rest arguments of a call: the init object, optional when nothing in it is required. */
export type CallArgs<M extends Method, P extends PathOf<M>> = InitArgs<CallInit<M, P>>;

/** The one method both clients offer: `call('GET', '/api/access-requests/{id}', { path: { id } })`. */
export interface TypedCalls {
  call<M extends Method, P extends PathOf<M>>(method: M, path: P, ...args: CallArgs<M, P>): Promise<ResponseBody<M, P>>;
}

/** The init of a call as the clients read it at run time. */
export interface LooseInit {
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  signal?: AbortSignal;
}

/** A path template with its parameters filled in, each one URL-encoded: `pathOf('/api/k8s/{resource}', {resource: 'pods'})`. */
export function pathOf(template: string, parameters: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = parameters[name];
    if (value === undefined) throw new TypeError(`path parameter ${name} of ${template} is missing`);
    return encodeURIComponent(String(value));
  });
}
