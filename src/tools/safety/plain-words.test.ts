import { describe, expect, it } from 'vitest';
import { splitPlainWords } from './plain-words.js';
import { sedScriptEffect } from './sed-script.js';

describe('splitPlainWords', () => {
  it.each([
    ['get \'a b\' "c d" e\\ f', ['get', 'a b', 'c d', 'e f']],
    ["$'\\x6b'ubectl", ['kubectl']],
    ['get "\\$x"', ['get', '$x']],
    ['get \\\n pods # comment', ['get', 'pods']],
    ['get pods\n# trailing comment\n', ['get', 'pods']],
    ['get a=b', ['get', 'a=b']],
  ])('splits %j', (text, words) => {
    expect(splitPlainWords(text)).toEqual({ ok: true, words });
  });

  it.each(['a | b', 'a; b', 'a\nb', 'a $x', 'a "$x"', 'a `x`', 'A=1 b', 'a > f', 'a &'])('refuses shell syntax %j', (text) => {
    expect(splitPlainWords(text)).toEqual({ ok: false, problem: 'shell' });
  });

  it.each(["a 'b", 'a "b', 'a \\'])('refuses unbalanced %j', (text) => {
    expect(splitPlainWords(text)).toEqual({ ok: false, problem: 'syntax' });
  });

  it('splits a 60,000-character line completely', () => {
    const result = splitPlainWords(`get ${'x '.repeat(30_000)}`);
    expect(result.ok && result.words.length).toBe(30_001);
  });
});

describe('sedScriptEffect', () => {
  it.each([
    ['s/a/b/', undefined],
    ['1,10p', undefined],
    ['s/hello/world/g', undefined],
    ['/x/d;s/e/w/', undefined],
    ['1e id', 'sed e runs a command'],
    ['s/a/b/e', 'sed s///e runs a command'],
    ['s/a/b/w out', 'sed s///w writes a file'],
    ['w out', 'sed w writes a file'],
    ['/re/W out', 'sed w writes a file'],
    ['s|a|b|;$e id', 'sed e runs a command'],
  ])('%j', (script, effect) => {
    expect(sedScriptEffect(script)).toBe(effect);
  });
});
