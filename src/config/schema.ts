import { RE2JS } from 're2js';
import { z } from 'zod';
import { durationSchema } from './duration.js';
import { oidcSchema, refuseBarePrefixes } from './oidc-schema.js';
import { prometheusSchema } from './prometheus-schema.js';
import { resourceRoleSchema, roleNames, tokenRoleMappingSchema } from './role-schemas.js';
import { investigationsSchema } from './investigations-schema.js';
import { problemsSchema } from './problems-schema.js';

/** Blocked patterns: RE2 syntax (matched in linear time with re2js; no backreferences or lookaround). */
const regexList = z.array(z.string()).superRefine((patterns, context) => {
  patterns.forEach((pattern, index) => {
    try {
      RE2JS.compile(pattern);
    } catch {
      context.addIssue({ code: 'custom', path: [index], message: `invalid regular expression "${pattern}" (RE2 syntax)` });
    }
  });
});

export { resourceRoleSchema, roleNames, tokenRoleMappingSchema, type ResourceRole, type RoleName, type TokenRoleMapping } from './role-schemas.js';

export const mcpServerConfigSchema = z.object({
  name: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS-1123 label')
    .max(63),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  enabled: z.boolean().default(true),
  description: z.string().optional(),
  env: z.record(z.string(), z.string()).default({}),
});
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;

/** A cluster's name: a DNS-1123 label (it appears in URLs, audit rows, Report and AccessRequest objects). */
export const clusterNameSchema = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS-1123 label')
  .max(63);

/** One more cluster of `clusters:` (ADR 0035): a kubeconfig file and optionally its context. */
export const clusterConfigSchema = z.object({
  name: clusterNameSchema,
  kubeconfig: z.string().min(1),
  context: z.string().optional(),
  /** Per-cluster impersonation mappings (role → identity); absent roles use `authorization.impersonation.mappings`. */
  impersonation: z.object({ mappings: z.partialRecord(z.enum(roleNames), z.string()).default({}) }).prefault({}),
  /** This cluster's Prometheus (absent: found the way `prometheus.detect` says, with the top-level limits). */
  prometheus: prometheusSchema.optional(),
});
export type ClusterConfig = z.infer<typeof clusterConfigSchema>;

export const defaultBlockedPatterns = [
  String.raw`\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+(-[a-zA-Z]+\s+)*|-[a-zA-Z]*[rR][a-zA-Z]*[fF]?\s+)(--no-preserve-root\s+)?/(\s|$|\*)`,
  String.raw`\bdelete\s+(ns|namespace|namespaces)\s+kube-system(\s|$)`,
  String.raw`:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:`,
];

/** The LLM provider kinds (README "Configuration reference", `llm`): one adapter each in src/llm. */
export const llmProviders = ['openai', 'azure', 'ollama', 'gemini', 'bedrock', 'anthropic'] as const;

/** How the model calls tools (config and `PUT /api/settings/llm` `tool_calling`). */
export const toolCallingModes = ['native', 'prompted', 'auto'] as const;
export type ToolCallingMode = (typeof toolCallingModes)[number];

/** A model's price in the currency of the operator's choice per million tokens; `cached_input` defaults to `input`. */
export const llmPriceSchema = z.object({ input: z.number().min(0), output: z.number().min(0), cached_input: z.number().min(0).optional() }).strict();
export type LlmPrice = z.infer<typeof llmPriceSchema>;

const llmBudgetsSchema = z
  .object({
    per_user_daily_tokens: z.number().int().positive().optional(),
    per_user_daily_cost: z.number().positive().optional(),
    total_daily_tokens: z.number().int().positive().optional(),
    total_daily_cost: z.number().positive().optional(),
  })
  .strict()
  .default({});
export type LlmBudgets = z.infer<typeof llmBudgetsSchema>;

const llmSchema = z
  .object({
    provider: z.enum(llmProviders).default('openai'),
    model: z.string().default('gpt-4o-mini'),
    api_key: z.string().optional(),
    base_url: z.string().optional(),
    azure_endpoint: z.string().optional(),
    azure_deployment: z.string().optional(),
    azure_api_version: z.string().optional(),
    region: z.string().optional(),
    timeout: durationSchema.default(60_000),
    max_retries: z.number().int().min(0).max(10).default(2),
    /** A base URL set through the API may be http and on loopback/link-local addresses (a local Ollama). */
    allow_private_base_url: z.boolean().default(false),
    /** How the model calls tools: the provider's own tool calling, JSON blocks described in the prompt, or prompted when the model has no tools. */
    tool_calling: z.enum(toolCallingModes).default('native'),
    /** Prices per million tokens by model name (docs/operator-manual/models-and-budgets.md); a model without one costs 0. */
    prices: z.record(z.string(), llmPriceSchema).default({}),
    /** Daily (UTC) caps of the chat's tokens and cost, per user and for everyone together. */
    budgets: llmBudgetsSchema,
    /** The model's context window in tokens; absent: a table of known models (src/usage/context-window.ts). */
    context_tokens: z.number().int().positive().optional(),
    /** The share of the context one tool result may fill before it reaches the model cut. */
    tool_output_share: z.number().gt(0).max(1).default(0.15),
  })
  .default({
    provider: 'openai',
    model: 'gpt-4o-mini',
    timeout: 60_000,
    max_retries: 2,
    allow_private_base_url: false,
    tool_calling: 'native',
    prices: {},
    budgets: {},
    tool_output_share: 0.15,
  });

const authorizationSchema = z
  .object({
    jwt: z
      .object({
        token_duration: durationSchema.default(3_600_000),
        refresh_window: durationSchema.default(900_000),
        // Absolute session lifetime: refreshing never extends a session past login + max_session.
        max_session: durationSchema.default(43_200_000).refine((value) => value > 0, 'must be longer than 0'),
        signing_key: z.string().optional(),
        /** A file holding the key (e.g. a mounted Secret), so it is in neither the config file nor the environment. */
        signing_key_file: z.string().min(1).optional(),
      })
      .refine((jwt) => !(jwt.signing_key && jwt.signing_key_file), {
        message: 'set signing_key or signing_key_file, not both',
        path: ['signing_key_file'],
      })
      .prefault({}),
    roles: z.array(resourceRoleSchema).default([]),
    impersonation: z
      .object({
        enabled: z.boolean().default(false),
        /** `role`: the role's mapped identity; `user`: SSO users as themselves (prefixed name and groups). */
        mode: z.enum(['role', 'user']).default('role'),
        mappings: z.partialRecord(z.enum(roleNames), z.string()).default({}),
      })
      .prefault({}),
    tool_approval: z
      .object({
        timeout: durationSchema.default(30_000),
        auto_approve_readonly: z.boolean().default(true),
        require_approval_unknown: z.boolean().default(true),
        blocked_patterns: regexList.default(defaultBlockedPatterns),
        readonly_programs: z
          .array(z.string())
          .default([
            'jq',
            'yq',
            'grep',
            'egrep',
            'head',
            'tail',
            'cat',
            'echo',
            'wc',
            'sort',
            'uniq',
            'cut',
            'awk',
            'sed',
            'ls',
            'pwd',
            'date',
            'tr',
            'column',
            'less',
            'more',
            'true',
            'false',
            'printf',
            'base64',
          ]),
        readonly_mcp_tools: z.array(z.string()).default([]),
      })
      .prefault({}),
    max_steps: z.number().int().min(1).max(200).default(20),
  })
  .prefault({});

/** `auth.token`: token mode (Kubernetes bearer tokens checked with a TokenReview; src/auth/token/). */
const tokenAuthSchema = z
  .object({
    audiences: z.array(z.string().min(1)).default([]),
    cache_ttl: durationSchema.default(60_000),
    cache_size: z.number().int().positive().default(1000),
    role_mappings: z.array(tokenRoleMappingSchema).default([]),
    default_role: z.enum(roleNames).optional(),
  })
  .prefault({});

/** `mcp_server`: MCP server mode (`--mcp`), its policy and the HTTP transport's access rules. */
const mcpServerModeSchema = z
  .object({
    allow_writes: z.boolean().default(false),
    bash: z.boolean().default(false),
    identity: z.string().default('mcp'),
    /** Static bearer tokens of the HTTP transport: `{name, token}` (e.g. `${MCP_TOKEN}`) or `{name, sha256}` (hex digest). */
    tokens: z
      .array(
        z
          .object({
            name: z.string().min(1),
            token: z.string().min(16).optional(),
            sha256: z
              .string()
              .regex(/^[0-9a-f]{64}$/)
              .optional(),
          })
          .refine((entry) => (entry.token === undefined) !== (entry.sha256 === undefined), { message: 'a token entry has exactly one of token or sha256' }),
      )
      .default([]),
    /** Host header values the HTTP transport answers besides localhost/127.0.0.1/[::1] on its port. */
    allowed_hosts: z.array(z.string().min(1)).default([]),
    /** Origin header values accepted besides http://localhost|127.0.0.1|[::1] on its port. */
    allowed_origins: z.array(z.string().min(1)).default([]),
  })
  .prefault({});

/** `helm`: which chart sources the API accepts. */
const helmSchema = z
  .object({
    /** Repository and chart URLs may be http (default: https only). */
    allow_http: z.boolean().default(false),
    /** Repository and chart URLs may resolve to loopback, link-local or metadata addresses. */
    allow_private_urls: z.boolean().default(false),
  })
  .prefault({});

/** The whole configuration file. Every key the contract names has a place here. */
/** Cluster names are unique: the home cluster's and each of `clusters:`. */
function uniqueClusterNames(config: { cluster: { name: string }; clusters: { name: string }[] }, context: z.RefinementCtx): void {
  const seen = new Set([config.cluster.name]);
  config.clusters.forEach((cluster, index) => {
    if (seen.has(cluster.name))
      context.addIssue({ code: 'custom', path: ['clusters', index, 'name'], message: `cluster name "${cluster.name}" is used twice` });
    seen.add(cluster.name);
  });
}

export const configSchema = z
  .object({
    server: z
      .object({
        host: z.string().default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).default(8080),
        trusted_proxies: z.array(z.string()).default([]),
        cors_origins: z.array(z.string()).default([]),
        /**
         * Host names the API answers besides IP literals, `localhost`, the bound name and the host of
         * `oidc.redirect_url` (DNS-rebinding defence, ADR 0027); `*.example.com` matches below it, `*` any name.
         */
        allowed_hosts: z.array(z.string().min(1)).default([]),
        body_limit: z
          .number()
          .int()
          .positive()
          .default(1024 * 1024),
        /** Interval of SSE heartbeat comments (`: ping`) on long streams. */
        sse_heartbeat: durationSchema.default(15_000),
      })
      .prefault({}),
    /** The home cluster (in-cluster config or `--kubeconfig`): its name in URLs, audit rows and objects. */
    cluster: z
      .object({
        name: clusterNameSchema.default('home'),
        /** Watch Secrets labelled `pilothouse.dev/cluster: "true"` in `kubernetes.namespace` for more clusters. */
        secrets: z.boolean().default(true),
        /** How long a cluster call waits before that cluster counts as down (its own timeout: other clusters never wait). */
        timeout: durationSchema.default(10_000),
      })
      .prefault({}),
    clusters: z.array(clusterConfigSchema).default([]),
    kubernetes: z
      .object({
        kubeconfig: z.string().optional(),
        context: z.string().optional(),
        namespace: z.string().default('pilothouse'),
        install_crds: z.boolean().default(true),
        leader_election: z.boolean().default(true),
      })
      .prefault({}),
    auth: z.object({ mode: z.enum(['local', 'token', 'ldap', 'oidc', 'none']).default('local'), token: tokenAuthSchema }).prefault({}),
    authorization: authorizationSchema,
    ldap: z
      .object({
        enabled: z.boolean().default(false),
        host: z.string().default('localhost'),
        port: z.number().int().default(389),
        use_ssl: z.boolean().default(false),
        bind_dn: z.string().default(''),
        bind_password: z.string().default(''),
        base_dn: z.string().default(''),
        user_filter: z.string().default('(uid=%s)'),
        username_attribute: z.string().min(1).default('uid'),
        group_filter: z.string().default('(member=%s)'),
        group_roles: z.record(z.string(), z.enum(roleNames)).default({}),
      })
      .prefault({}),
    oidc: oidcSchema,
    llm: llmSchema,
    settings: z
      .object({
        language: z.enum(['en', 'ko', 'ja', 'zh']).default('en'),
        beginner_mode: z.boolean().default(false),
        auto_approve_readonly: z.boolean().default(true),
      })
      .prefault({}),
    mcp: z
      .object({
        servers: z.array(mcpServerConfigSchema).default([]),
        /** Commands MCPServer objects may run (bare program names looked up on PATH). */
        allowed_commands: z.array(z.string().min(1)).default(['npx', 'uvx', 'node', 'python3']),
        /** Absolute folders whose programs MCPServer objects may run by absolute path. */
        allowed_command_dirs: z.array(z.string().startsWith('/')).default([]),
      })
      .prefault({}),
    mcp_server: mcpServerModeSchema,
    helm: helmSchema,
    tools: z
      .object({
        kubectl: z.string().optional(),
        helm: z.string().optional(),
        output_limit: z
          .number()
          .int()
          .positive()
          .default(64 * 1024),
        timeout: durationSchema.default(60_000),
        bash: z.object({ enabled: z.boolean().default(false) }).prefault({}),
        files: z.object({ root: z.string().optional() }).prefault({}),
      })
      .prefault({}),
    limits: z
      .object({
        requests_per_minute: z.number().int().positive().default(100),
        chat_requests_per_minute: z.number().int().positive().default(10),
        login_attempts_per_minute: z.number().int().positive().default(10),
        exec_output_limit: z
          .number()
          .int()
          .positive()
          .default(1024 * 1024),
        exec_timeout: durationSchema.default(30_000),
      })
      .prefault({}),
    audit: z
      .object({
        retention_days: z.number().int().positive().default(90),
        /** Which reads leave an `execute` entry: every object read, only sensitive ones (Secrets, logs, helm values/manifests), none. */
        include_reads: z.enum(['all', 'sensitive', 'none']).default('sensitive'),
      })
      .prefault({}),
    metrics: z.object({ public: z.boolean().default(false) }).prefault({}),
    /** The home cluster's Prometheus (usage history and PromQL, issue 36; docs/user-guide/history-and-promql.md). */
    prometheus: prometheusSchema.prefault({}),
    /** The shared store of several replicas (README "HA"); unset: embedded SQLite in the data dir, one replica. */
    database: z
      .object({
        /** `postgres://user:password@host:port/database` (also `PILOTHOUSE_DATABASE_URL`); never logged. */
        url: z
          .string()
          .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
          .optional(),
        /** A file holding the URL (a mounted Secret: the chart's way); read into `url` when the config is loaded. */
        url_file: z.string().min(1).optional(),
        pool_size: z.number().int().min(1).max(100).default(10),
        /** How long a request waits for PostgreSQL (connecting or one statement) before it answers 503 `UNAVAILABLE`. */
        timeout: durationSchema.default(5_000),
      })
      .prefault({}),
    portforward: z.object({ bind_address: z.string().default('127.0.0.1') }).prefault({}),
    reports: z
      .object({
        /** Reports (objects and files) older than this are deleted. */
        retention: durationSchema.default(7 * 86_400_000),
        /** Image registries the vulnerability assessment trusts (e.g. `registry.example.com/team`); empty: not checked. */
        trusted_registries: z.array(z.string().min(1)).default([]),
        /** Where report files are written; default `<data dir>/reports`. */
        directory: z.string().optional(),
      })
      .prefault({}),
    /** Investigations by the AI pilot (issue 37; src/config/investigations-schema.ts). */
    investigations: investigationsSchema,
    /** Problems found live from the watch caches (issue 35; src/config/problems-schema.ts). */
    problems: problemsSchema,
  })
  .superRefine(refuseBarePrefixes)
  .superRefine(uniqueClusterNames)
  .prefault({});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
