import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentLoop, type TurnOutcome } from '../../src/agent/agent-loop.js';
import type { AgentEvent } from '../../src/agent/history/agent-events.js';
import { ApprovalRegistry } from '../../src/agent/approvals/approvals.js';
import { ChatService } from '../../src/agent/chat-service.js';
import { ManualScheduler } from '../../src/agent/approvals/scheduler.js';
import { AuditLog } from '../../src/audit/audit-log.js';
import type { ClusterDirectory } from '../../src/agent/cluster-directory.js';
import type { Principal } from '../../src/rbac/principal.js';
import type { Tool, ToolClusterGateway } from '../../src/tools/types.js';
import { configSchema, type RoleName, type ToolCallingMode } from '../../src/config/schema.js';
import type { LlmConfig } from '../../src/llm/types.js';
import { createLlmProvider } from '../../src/llm/providers/index.js';
import { contextTokensOf } from '../../src/llm/context-window.js';
import { createLogger } from '../../src/log.js';
import { ChatStore } from '../../src/store/chat-store.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { SqliteClient } from '../../src/store/sql-client.js';
import { findBinary } from '../../src/tools/binaries.js';
import { createBashTool } from '../../src/tools/builtin/index.js';
import { createBashSandbox } from '../../src/tools/builtin/bash-sandbox-setup.js';
import { InMemoryToolRegistry } from '../../src/tools/registry.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from '../../src/tools/safety/index.js';
import { startLlmWireServer, type LlmWireServer } from './llm-wire/index.js';

export interface AgentHarnessOptions {
  maxSteps?: number;
  approvalTimeoutMs?: number;
  /** The clusters a chat and its tool calls may target (default: one, `home`). */
  clusters?: ClusterDirectory;
  /** The policy proxy gateway of kubectl and bash calls (default: none: bash runs without a cluster). */
  gateway?: ToolClusterGateway;
  /** More tools to register next to bash (e.g. a kubectl tool with a gateway). */
  extraTools?: Tool[];
  /** The provider and model the loop talks to over the wire server (default: openai, wire-model). */
  provider?: 'openai' | 'ollama' | 'anthropic';
  model?: string;
  /** `llm.tool_calling` (default native). */
  toolCalling?: ToolCallingMode;
  /** Shortens long tool results for the model (src/agent/context-fit.ts); default: config defaults. */
  llm?: Partial<Pick<LlmConfig, 'context_tokens' | 'tool_output_share'>>;
}

export interface TurnOptions {
  role?: RoleName;
  username?: string;
  sessionId?: string;
  signal?: AbortSignal;
  autoApproveReadonly?: boolean;
  /** The chat's cluster (context.cluster); default: none (the home cluster). */
  cluster?: string;
  /** Called with each event as it is emitted (approve from here). */
  onEvent?(event: AgentEvent): void;
}

export interface AgentHarness {
  wire: LlmWireServer;
  database: Db;
  store: ChatStore;
  chat: ChatService;
  approvals: ApprovalRegistry;
  scheduler: ManualScheduler;
  audit: AuditLog;
  tools: InMemoryToolRegistry;
  /** Opens (or creates) a session and runs one turn; returns the events and the outcome. */
  turn(message: string, options?: TurnOptions): Promise<{ sessionId: string; events: AgentEvent[]; outcome: TurnOutcome }>;
  principal(role?: RoleName, username?: string): Principal;
  close(): Promise<void>;
}

/**
 * The agent loop wired like production (real SQLite, real bash tool in a sandbox, real safety
 * analyzer, the real OpenAI SDK) against the scripted LLM wire server; time is a manual scheduler.
 */
export async function startAgentHarness(options: AgentHarnessOptions = {}): Promise<AgentHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pilothouse-agent-'));
  const wire = await startLlmWireServer();
  const database = openDatabase(dataDir);
  const config = configSchema.parse({});
  const safety = new SafetyAnalyzer(safetyOptionsFromConfig(config.authorization.tool_approval));
  const tools = new InMemoryToolRegistry();
  tools.register(
    createBashTool({
      enabled: true,
      sandboxRoot: join(dataDir, 'sandboxes'),
      sandbox: createBashSandbox({ kubectlPath: findBinary('kubectl') }),
      outputLimit: 64 * 1024,
      timeoutMs: 10_000,
    }),
  );
  for (const tool of options.extraTools ?? []) tools.register(tool);
  const scheduler = new ManualScheduler();
  const approvalTimeoutMs = options.approvalTimeoutMs ?? 30_000;
  const approvals = new ApprovalRegistry(scheduler, approvalTimeoutMs);
  const audit = new AuditLog(database);
  const providerName = options.provider ?? 'openai';
  const provider = createLlmProvider({
    ...config.llm,
    ...options.llm,
    provider: providerName,
    model: options.model ?? 'wire-model',
    base_url: providerName === 'openai' ? `${wire.url}/v1` : wire.url,
    api_key: 'sk-test',
    timeout: 5_000,
    max_retries: 0,
  });
  const loop = new AgentLoop({
    tools,
    safety,
    approvals,
    audit,
    proxyGateway: options.gateway,
    approvalTimeoutMs,
    llm: {
      provider: () => provider,
      toolCalling: () => options.toolCalling ?? 'native',
      contextFit: () => ({
        contextTokens: contextTokensOf(options.model ?? 'wire-model', options.llm?.context_tokens),
        toolOutputShare: options.llm?.tool_output_share ?? config.llm.tool_output_share,
      }),
    },
    maxSteps: options.maxSteps ?? 20,
    logger: createLogger('silent'),
  });
  const store = new ChatStore(new SqliteClient(database));
  const chat = new ChatService(store, loop);
  const principal = (role: RoleName = 'admin', username = `${role}-tester`): Principal => ({ username, role, roles: [] });
  return {
    wire,
    database,
    store,
    chat,
    approvals,
    scheduler,
    audit,
    tools,
    principal,
    async turn(message, turnOptions = {}) {
      const caller = principal(turnOptions.role, turnOptions.username);
      const session = await chat.openSession(caller, turnOptions.sessionId, message);
      const events: AgentEvent[] = [];
      const outcome = await chat.runTurn(session.id, {
        principal: caller,
        clusters: options.clusters,
        message,
        context: { namespace: 'team-a', resource: 'deployment/web', ...(turnOptions.cluster ? { cluster: turnOptions.cluster } : {}) },
        emit: (event) => {
          events.push(event);
          turnOptions.onEvent?.(event);
        },
        signal: turnOptions.signal ?? new AbortController().signal,
        auditFields: { user: caller.username },
        settings: { language: 'en', beginnerMode: false, autoApproveReadonly: turnOptions.autoApproveReadonly ?? true },
      });
      return { sessionId: session.id, events, outcome };
    },
    async close() {
      await wire.close();
      database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The events of one name, payloads only. */
export function eventsNamed<Name extends AgentEvent['event']>(events: readonly AgentEvent[], name: Name): Extract<AgentEvent, { event: Name }>['data'][] {
  return events.filter((event) => event.event === name).map((event) => event.data) as never;
}
