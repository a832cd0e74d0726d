// The UI strings come from the shared catalogue at the repository root, locales/<language>/<area>.json:
// one source of truth for the web UI and the terminal UI (test/unit/locales.test.ts checks that every
// language has every key). Areas are files so that features add strings without touching each other's.
import type { Language } from '@pilothouse/wire/types';
import type web from '@locales/en/web.json';
import type sso from '@locales/en/sso.json';
import type objects from '@locales/en/objects.json';
import type pages from '@locales/en/pages.json';
import type clusters from '@locales/en/clusters.json';
import type investigations from '@locales/en/investigations.json';
import type history from '@locales/en/history.json';
import type problems from '@locales/en/problems.json';
import type views from '@locales/en/views.json';
import type session from '@locales/en/session.json';
import type audit from '@locales/en/audit.json';
import type palette from '@locales/en/palette.json';
import type health from '@locales/en/health.json';

/** Every English area the web UI uses; add an area's type here when the web UI starts using it. */
type English = typeof web &
  typeof sso &
  typeof objects &
  typeof pages &
  typeof clusters &
  typeof investigations &
  typeof history &
  typeof problems &
  typeof views &
  typeof session &
  typeof audit &
  typeof palette &
  typeof health;

export type MessageKey = keyof English;
export type Dictionary = Record<MessageKey, string>;

const files = import.meta.glob<Record<string, string>>('@locales/*/*.json', { eager: true, import: 'default' });

function dictionary(language: Language): Dictionary {
  const merged: Record<string, string> = {};
  for (const [path, strings] of Object.entries(files)) {
    if (path.split('/').at(-2) === language) Object.assign(merged, strings);
  }
  return merged as Dictionary;
}

export const dictionaries: Record<Language, Dictionary> = { en: dictionary('en'), ko: dictionary('ko'), ja: dictionary('ja'), zh: dictionary('zh') };
export const en = dictionaries.en;
