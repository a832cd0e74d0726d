import { describe, expect, it } from 'vitest';
import { format, translator } from './index';

// Every key in every language is checked once, for the shared catalogue, by test/unit/locales.test.ts.

describe('i18n', () => {
  it('fills placeholders and switches language', () => {
    expect(format('{a} of {b} {c}', { a: 1, b: 2 })).toBe('1 of 2 {c}');
    expect(translator('ko')('delete.button')).toBe('삭제');
    expect(translator('en')('table.count', { shown: 1, total: 3 })).toBe('1 of 3');
  });
});
