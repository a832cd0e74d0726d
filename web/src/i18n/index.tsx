import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { Language } from '@pilothouse/wire/types';
import { dictionaries, en, type MessageKey } from './catalogue';

export { dictionaries };
export const languageNames: Record<Language, string> = { en: 'English', ko: '한국어', ja: '日本語', zh: '中文' };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** `{name}` placeholders filled from `values`; unknown placeholders stay as written. */
export function format(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export function translator(language: Language): Translate {
  const dictionary = dictionaries[language] ?? en;
  return (key, values) => format(dictionary[key] ?? en[key], values);
}

const I18nContext = createContext<{ language: Language; t: Translate }>({ language: 'en', t: translator('en') });

export function I18nProvider({ language, children }: { language: Language; children: ReactNode }): ReactNode {
  const value = useMemo(() => ({ language, t: translator(language) }), [language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The translate function of the current language. */
export function useT(): Translate {
  return useContext(I18nContext).t;
}

export function useLanguage(): Language {
  return useContext(I18nContext).language;
}

export type { MessageKey };
