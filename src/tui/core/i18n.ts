import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import i18next, { type i18n } from 'i18next';

export const languages = ['en', 'ko', 'ja', 'zh'] as const;
export type Language = (typeof languages)[number];

/** Translates a catalogue key with `{name}` placeholders. */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

/** The shared catalogue, locales/<language>/<area>.json at the package root (docs/adr/0018-shared-locale-catalogue.md); same depth from src/ and dist/. */
const catalogueRoot = fileURLToPath(new URL('../../../locales', import.meta.url));

function readLanguage(language: Language): Record<string, string> {
  const folder = join(catalogueRoot, language);
  const merged: Record<string, string> = {};
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json')))
    Object.assign(merged, JSON.parse(readFileSync(join(folder, file), 'utf8')) as Record<string, string>);
  return merged;
}

/** The language of `--lang`, else of LC_ALL / LC_MESSAGES / LANG (`ko_KR.UTF-8` → ko), else English. */
export function languageFrom(flag: string | undefined, environment: NodeJS.ProcessEnv): Language {
  const candidates = [flag, environment.LC_ALL, environment.LC_MESSAGES, environment.LANG];
  for (const candidate of candidates) {
    const code = candidate?.toLowerCase().slice(0, 2);
    if (code && (languages as readonly string[]).includes(code)) return code as Language;
  }
  return 'en';
}

/** Loads the catalogue into an i18next instance and returns its translate function (English for a missing key). */
export function createTranslate(language: Language): Translate {
  const instance: i18n = i18next.createInstance();
  void instance.init({
    lng: language,
    fallbackLng: 'en',
    initAsync: false,
    keySeparator: false,
    nsSeparator: false,
    interpolation: { prefix: '{', suffix: '}', escapeValue: false },
    resources: Object.fromEntries(languages.map((code) => [code, { translation: readLanguage(code) }])),
  });
  return (key, values) => instance.t(key, values ?? {});
}
