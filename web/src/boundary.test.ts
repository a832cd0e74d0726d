import { describe, expect, it } from 'vitest';
import manifest from '../package.json';

// STYLE habit 12: web/ talks to the service only over HTTP, never by importing its sources. The imports
// from outside web/src are the shared locale catalogue, data only, through the `@locales` alias, and the wire
// module shared with the terminal UI, the local package @pilothouse/wire (packages/wire, docs/adr/0036).
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts'], { query: '?raw', import: 'default', eager: true });

describe('web/ boundary', () => {
  it('imports nothing outside web/src except npm packages', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(10);
    for (const [file, text] of Object.entries(sources)) {
      const specifiers = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/g)].map(
        (match) => match[1] ?? match[2] ?? '',
      );
      for (const specifier of specifiers) {
        if (!specifier.startsWith('.')) continue;
        const depth = file.split('/').length - 2;
        const ups = specifier.split('/').filter((part) => part === '..').length;
        expect(ups, `${file} imports ${specifier}`).toBeLessThanOrEqual(depth);
      }
    }
  });

  it('depends on one local package alone, the wire module (packages/wire)', () => {
    const local = Object.entries(manifest.dependencies).filter(([, spec]) => /^(file|link|workspace):/.test(spec));
    expect(local).toEqual([['@pilothouse/wire', 'file:../packages/wire']]);
  });
});
