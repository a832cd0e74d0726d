import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const e2e = join(root, 'test', 'e2e');
const testingPage = join(root, 'docs', 'development', 'testing.md');

/** The areas the testing page names: the first cell (`name`) of each row of its area table. */
function documentedAreas(): string[] {
  const page = readFileSync(testingPage, 'utf8');
  const section = page.split('## Which tests cover each area')[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\| `([a-z][a-z-]*)` \|/gm)].map((match) => match[1] ?? '');
}

const isFolder = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();

describe('test areas (docs/development/testing.md, make test-area)', () => {
  const areas = documentedAreas();

  it('reads the area table of the testing page', () => {
    expect(areas).toContain('kube');
    expect(new Set(areas).size).toBe(areas.length);
  });

  it('keeps every integration test in an area folder, and every area folder in the table', () => {
    const entries = readdirSync(e2e);
    expect(entries.filter((name) => !isFolder(join(e2e, name)))).toEqual([]);
    expect(entries.filter((name) => !areas.includes(name))).toEqual([]);
  });

  it('names only areas that exist: each has its unit tests in src/<area>/ or its integration tests in test/e2e/<area>/', () => {
    const missing = areas.filter((area) => !isFolder(join(root, 'src', area)) && !isFolder(join(e2e, area)));
    expect(missing).toEqual([]);
  });

  it('has a make target that runs one area', () => {
    const makefile = readFileSync(join(root, 'Makefile'), 'utf8');
    expect(makefile).toMatch(/^test-area:/m);
    expect(makefile).toContain('src/$(AREA)/ test/e2e/$(AREA)/');
  });
});
