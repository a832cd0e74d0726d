import type { Principal } from '../rbac/principal.js';

/** The contract's built-in tool types. */
/** `pilothouse`: a read-only tool of Pilothouse's own (runbooks, an investigation's conclude) that reaches the cluster only as the service, never for the model. */
export type ToolType = 'kubectl' | 'bash' | 'read_file' | 'write_file' | 'mcp' | 'pilothouse' | 'promql' | 'problems';

/** JSON schema of a tool's input (an object schema). */
export interface JsonObjectSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** What the LLM (and MCP clients) see of a tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonObjectSchema;
  type: ToolType;
  /** Declared read-only: never changes anything. */
  readOnly: boolean;
  /** Declared destructive: may delete or disrupt. */
  destructive: boolean;
  /** For type `mcp`: the name of the server that advertised the tool. */
  server?: string;
}

/**
 * How much a tool call may do through the policy proxy: `read` (ran without an approval: only
 * get/list/watch, access reviews and server-side dry runs), `approved` (a human said yes: the
 * caller's role and the policy decide) or `direct` (a person's own request, MCP server mode's
 * write path: the role matrix with grants). The same names as the policy's modes.
 */
export type ToolMode = 'read' | 'approved' | 'direct';

/** A cluster request the policy proxy refused during one tool call (for the result and the audit row). */
export interface ToolClusterRefusal {
  verb: string;
  /** `resource` or `resource/subresource`, or the path of a non-resource URL. */
  resource: string;
  namespace: string;
  name: string;
  /** The policy's sentence, e.g. "this command ran as read-only and tried to create pods; it needs approval". */
  reason: string;
  /** Set when the policy refused with `approval_required`: the access request that would let the request pass. */
  accessNeeded?: AccessNeeded;
}

/**
 * The scope of an access request (`POST /api/access-requests`) that covers what the policy refused
 * with `approval_required`; empty `namespaces` means all (cluster-scoped resources).
 */
export interface AccessNeeded {
  permission: 'execute_write' | 'delete';
  namespaces: string[];
  resources: string[];
}

/**
 * The cluster as one tool call sees it: a kubeconfig that points at a per-call policy proxy and
 * holds no service credential. Opened before the call runs and closed after it.
 */
export interface ToolClusterSession {
  /** Path of the generated kubeconfig (in a private folder that holds nothing else of the service). */
  kubeconfigPath: string;
  /**
   * The same proxy as a Unix socket in the kubeconfig's folder, and the loopback port the kubeconfig names:
   * the bash sandbox has no network of its own but loopback and relays its 127.0.0.1:port to this socket.
   */
  socket: { path: string; port: number };
  /** The requests the proxy refused so far (first ones, capped). */
  refusals(): readonly ToolClusterRefusal[];
  /**
   * kubectl's warm discovery cache of this session's cluster, owned by that cluster's gateway (never another
   * cluster's); absent: kubectl starts with an empty cache.
   */
  discovery?: SessionDiscovery;
  close(): Promise<void>;
}

/** The part of a session a discovery cache is built through and linked for: its kubeconfig and proxy port. */
export type DiscoverySessionTarget = Pick<ToolClusterSession, 'kubeconfigPath' | 'socket'>;

/** The warm discovery cache as one session uses it (src/tools/builtin/kubectl-discovery-cache.ts). */
export interface SessionDiscovery {
  /** Before kubectl runs: points the session's kubectl cache folder `cacheDir` at its cluster's warm copy. */
  prepare(cacheDir: string): Promise<void>;
  /** After kubectl ran, before the session closes: a rebuild through this session has finished. */
  settle(): Promise<void>;
}

/** One cluster's warm discovery cache, built with its cluster's gateway and closed with it. */
export interface ClusterDiscoveryCache {
  prepare(session: DiscoverySessionTarget, cacheDir: string): Promise<void>;
  settle(): Promise<void>;
  close(): void;
}

/** Opens per-call proxy sessions (src/tools/policy-proxy); tools never see the service's credentials. */
export interface ToolClusterGateway {
  /**
   * `clusterName`: the cluster the call targets (ADR 0035; absent: the home cluster). An unknown name is a
   * NOT_FOUND AppError with `details.cluster`; the proxy runs that cluster's policy as the caller's identity there.
   */
  open(request: { principal: Principal; mode: ToolMode; signal?: AbortSignal; clusterName?: string }): Promise<ToolClusterSession>;
}

/** The identity and limits a tool runs with. */
export interface ToolContext {
  principal: Principal;
  /** Chat session id, used for per-session sandboxes. */
  sessionId?: string;
  /** `read` unless a human approved this call. */
  mode?: ToolMode;
  /** The cluster the call targets (its `cluster` argument, else the chat's), for tools that reach it without a proxy (promql, problems); absent: the home cluster. */
  clusterName?: string;
  /** The per-call proxy session; when set, tools reach the cluster only through it. */
  proxySession?: ToolClusterSession;
  signal?: AbortSignal;
}

/** A tool failure is a result the model can read, never an exception. */
export interface ToolResult {
  output: string;
  isError: boolean;
  truncated?: boolean;
  exitCode?: number;
}

/** A runnable tool. */
export interface Tool {
  readonly definition: ToolDefinition;
  /**
   * The command line the safety analysis classifies and the audit log records,
   * e.g. `kubectl get pods -n x` for the kubectl tool or `mcp everything echo {"message":"hi"}`.
   */
  commandLine(args: Record<string, unknown>): string;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult>;
}

/** The tool registry shared by the agent loop and the MCP server mode. */
export interface ToolRegistry {
  list(): ToolDefinition[];
  get(name: string): Tool | undefined;
  register(tool: Tool): void;
  unregister(name: string): void;
  /** Called whenever tools are added or removed; returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
}
