import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keysOf, viewIds } from '../../src/tui/core/key-map.js';

// The shared locale catalogue (locales/<language>/<area>.json) is read by the web UI and the terminal UI.
const root = join(import.meta.dirname, '..', '..', 'locales');
const languages = ['en', 'ko', 'ja', 'zh'];
const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
const read = (language: string, area: string): Record<string, string> => JSON.parse(readFileSync(join(root, language, area), 'utf8')) as Record<string, string>;

describe('locale catalogue', () => {
  const areas = readdirSync(join(root, 'en')).sort();

  it('has the same areas in every language', () => {
    expect(areas.length).toBeGreaterThan(0);
    for (const language of languages) expect(readdirSync(join(root, language)).sort(), language).toEqual(areas);
  });

  it('has every key, non-empty, with the same placeholders, in every language', () => {
    for (const area of areas) {
      const english = read('en', area);
      for (const language of languages) {
        const strings = read(language, area);
        expect(Object.keys(strings).sort(), `${language}/${area}`).toEqual(Object.keys(english).sort());
        for (const [key, text] of Object.entries(english)) {
          expect(strings[key]?.length ?? 0, `${language}/${area} ${key}`).toBeGreaterThan(0);
          expect(placeholders(strings[key] ?? ''), `${language}/${area} ${key}`).toEqual(placeholders(text));
        }
      }
    }
  });

  it('never defines a key in two areas', () => {
    const seen = new Map<string, string>();
    for (const area of areas) {
      for (const key of Object.keys(read('en', area))) {
        expect(seen.get(key), `${key} in ${area}`).toBeUndefined();
        seen.set(key, area);
      }
    }
  });

  it('has every key the terminal UI uses (literal keys in src/tui, every key-map action, every view title)', () => {
    const english = read('en', 'tui.json');
    const sources = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(join(folder, entry.name))
          : /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
            ? [join(folder, entry.name)]
            : [],
      );
    const used = new Set<string>();
    for (const file of sources(join(root, '..', 'src', 'tui')))
      for (const match of readFileSync(file, 'utf8').matchAll(/'(tui\.[a-zA-Z]+\.?[a-zA-Z.]*)'/g)) used.add(match[1] ?? '');
    for (const view of viewIds) for (const binding of keysOf(view, { readonly: false })) used.add(`tui.key.${binding.action}`);
    for (const verb of ['restart', 'rollback', 'pause', 'resume', 'cordon', 'uncordon']) used.add(`tui.confirm.${verb}`);
    for (const view of ['describe', 'yaml']) used.add(`tui.view.${view}`);
    expect(used.size).toBeGreaterThan(60);
    expect([...used].filter((key) => english[key] === undefined)).toEqual([]);
  });
});
