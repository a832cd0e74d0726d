import { describe, expect, it } from 'vitest';
import { createTranslate, languageFrom } from './i18n.js';

describe('the terminal UI language', () => {
  it('comes from --lang, else LC_ALL, LC_MESSAGES or LANG, else English', () => {
    expect(languageFrom('ja', { LANG: 'ko_KR.UTF-8' })).toBe('ja');
    expect(languageFrom(undefined, { LC_ALL: 'zh_CN.UTF-8', LANG: 'ko_KR.UTF-8' })).toBe('zh');
    expect(languageFrom(undefined, { LANG: 'ko_KR.UTF-8' })).toBe('ko');
    expect(languageFrom(undefined, { LANG: 'de_DE.UTF-8' })).toBe('en');
    expect(languageFrom(undefined, {})).toBe('en');
  });

  it('reads the shared catalogue with {name} placeholders', () => {
    expect(createTranslate('en')('tui.confirm.delete', { object: 'pod/web' })).toBe('Delete pod/web?');
    expect(createTranslate('ko')('tui.confirm.delete', { object: 'pod/web' })).toBe('pod/web을(를) 삭제할까요?');
    expect(createTranslate('zh')('tui.header.pending', { count: 2 })).toBe('待处理申请：2');
  });
});
