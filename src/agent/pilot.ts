import type { AppDeps } from '../deps.js';
import { ApiKeyFile } from '../settings/api-key-file.js';
import { llmUrlPolicy } from '../net/outbound-policies.js';
import { LlmSettings } from '../settings/llm-settings.js';
import { UserSettings } from '../settings/user-settings.js';
import { ChatStore } from '../store/chat-store.js';
import { SettingsStore } from '../store/settings-store.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from '../tools/safety/index.js';
import { AgentLoop } from './agent-loop.js';
import { ApprovalRegistry } from './approvals.js';
import { ChatService } from './chat-service.js';
import { timerScheduler, type Scheduler } from './scheduler.js';

/** The AI pilot's services (README "AI pilot"), reached as `deps.pilot`. */
export interface Pilot {
  /** The LLM configuration in use and its provider (GET/PUT /api/settings/llm). */
  llm: LlmSettings;
  /** Chat sessions, turns and history. */
  chat: ChatService;
  /** Tool calls waiting for a decision (POST /api/tool/approve). */
  approvals: ApprovalRegistry;
  /** Per-user settings (GET/PUT /api/settings). */
  userSettings: UserSettings;
}

/** The dependencies the pilot is built from. */
export type PilotBase = Omit<AppDeps, 'safety' | 'pilot'>;

/**
 * Adds the safety analyzer and the pilot to the core dependencies, and wires the health
 * check's LLM probe to the configured provider. `scheduler` is the approval timer (tests).
 */
export function withPilot(core: PilotBase, scheduler: Scheduler = timerScheduler): AppDeps {
  const { config } = core;
  const safety = new SafetyAnalyzer(safetyOptionsFromConfig(config.authorization.tool_approval, config.tools.files.root));
  const settingsStore = new SettingsStore(core.database);
  const llm = new LlmSettings({ base: config.llm, store: settingsStore, keyFile: new ApiKeyFile(core.dataDir), urlPolicy: llmUrlPolicy(config, core.kube.apiServerUrl()) });
  const approvalTimeoutMs = config.authorization.tool_approval.timeout;
  const approvals = new ApprovalRegistry(scheduler, approvalTimeoutMs);
  const loop = new AgentLoop({
    tools: core.tools,
    safety,
    approvals,
    audit: core.audit,
    identityOf: (principal) => core.identities.identityOf(principal),
    cluster: core.toolCluster,
    approvalTimeoutMs,
    llm,
    maxSteps: config.authorization.max_steps,
    logger: core.logger,
  });
  const chat = new ChatService(new ChatStore(core.database, () => new Date(core.clock())), loop);
  core.health.llmCheck = () => llm.check();
  const userSettings = new UserSettings(settingsStore, config.settings);
  return { ...core, safety, pilot: { llm, chat, approvals, userSettings } };
}
