import { describe, expect, it } from 'vitest';
import { en } from './en';
import { dictionaries, format, translator } from './index';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();

describe('i18n', () => {
  it('has every key, non-empty, with the same placeholders, in every language', () => {
    for (const [language, dictionary] of Object.entries(dictionaries)) {
      expect(Object.keys(dictionary).sort(), language).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(en)) {
        const translated = dictionary[key as keyof typeof en];
        expect(translated.length, `${language} ${key}`).toBeGreaterThan(0);
        expect(placeholders(translated), `${language} ${key}`).toEqual(placeholders(text));
      }
    }
  });

  it('fills placeholders and switches language', () => {
    expect(format('{a} of {b} {c}', { a: 1, b: 2 })).toBe('1 of 2 {c}');
    expect(translator('ko')('delete.button')).toBe('삭제');
    expect(translator('en')('table.count', { shown: 1, total: 3 })).toBe('1 of 3');
  });
});
