import { z } from 'zod';
import type { Config } from '../config/schema.js';
import type { SettingsSnapshot } from './settings-snapshot.js';

/** One user's settings (docs/user-guide/ai-pilot.md, Settings). */
export const userSettingsSchema = z.object({
  language: z.enum(['en', 'ko', 'ja', 'zh']),
  beginner_mode: z.boolean(),
  auto_approve_readonly: z.boolean(),
  /** The web UI's AI pilot panel: open or closed, as the user last left it (absent: open). */
  pilot_open: z.boolean().optional(),
});
export type UserSettingsValue = z.infer<typeof userSettingsSchema>;

/** Body of `PUT /api/settings`: any subset of the fields, nothing else. */
export const userSettingsUpdateSchema = userSettingsSchema.partial().strict();
export type UserSettingsUpdate = z.infer<typeof userSettingsUpdateSchema>;

const keyOf = (username: string): string => `user:${username}`;

/**
 * Per-user settings, stored in the settings table under `user:<name>`; defaults come from config
 * `settings`. `auto_approve_readonly` can only make the user's own chat stricter: a read-only
 * command runs without asking only when both this setting and config
 * `authorization.tool_approval.auto_approve_readonly` allow it.
 */
export class UserSettings {
  constructor(
    private readonly store: SettingsSnapshot,
    private readonly defaults: Config['settings'],
  ) {}

  get(username: string): UserSettingsValue {
    const stored = userSettingsSchema.partial().safeParse(this.store.get(keyOf(username)) ?? {});
    return { ...this.defaults, ...(stored.success ? stored.data : {}) };
  }

  /** Merges the given fields into the user's settings and returns the result. */
  async update(username: string, changes: UserSettingsUpdate): Promise<UserSettingsValue> {
    const next = { ...this.get(username), ...changes };
    await this.store.set(keyOf(username), next);
    return next;
  }
}
