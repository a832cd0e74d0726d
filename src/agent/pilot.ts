import type { LlmSettings } from '../settings/llm-settings.js';
import type { SettingsSnapshot } from '../settings/settings-snapshot.js';
import type { UserSettings } from '../settings/user-settings.js';
import type { Approvals } from './approvals.js';
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
}
