import type { LlmSettings } from '../settings/llm-settings.js';
import type { SettingsSnapshot } from '../settings/settings-snapshot.js';
import type { UserSettings } from '../settings/user-settings.js';
import type { BudgetGuard } from '../usage/budgets.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import type { Approvals } from './approvals/approvals.js';
import type { ChatService } from './chat-service.js';

/** The AI pilot's services (docs/user-guide/ai-pilot.md), built in src/app/compose-pilot.ts. */
export interface Pilot {
  /** The LLM configuration in use and its provider (GET/PUT /api/settings/llm). */
  llm: LlmSettings;
  /** Chat sessions, turns and history. */
  chat: ChatService;
  /** Tool calls waiting for a decision (POST /api/tool/approve). */
  approvals: Approvals;
  /** Per-user settings (GET/PUT /api/settings). */
  userSettings: UserSettings;
  /** The settings behind both, loaded before the service serves (and polled with `database.url`). */
  settings: SettingsSnapshot;
  /** Tokens and cost of every model call (GET /api/usage; investigations record theirs here too). */
  usage: UsageRecorder;
  /** The chat's daily budgets (config `llm.budgets`), checked before a turn starts and before each model call. */
  chatBudgets: BudgetGuard;
}
