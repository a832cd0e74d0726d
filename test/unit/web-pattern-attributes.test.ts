import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Browsers compile an input's `pattern` with the `v` flag; a pattern invalid there is ignored silently, which turns
// the field's client-side validation off. Every pattern attribute in the web sources must compile under `v`.
const sourceRoot = join(import.meta.dirname, '..', '..', 'web', 'src');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.tsx') ? [path] : [];
  });
}

const patterns = sourceFiles(sourceRoot).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/\bpattern="([^"]*)"/g)].map((match) => ({ file: file.slice(sourceRoot.length + 1), pattern: match[1] ?? '' })),
);

describe('input pattern attributes', () => {
  it('are found in the forms that name objects', () => {
    expect(patterns.map((entry) => entry.file)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('HelmRepositoriesPage.tsx'),
        expect.stringContaining('HelmInstallPage.tsx'),
        expect.stringContaining('McpServerForm.tsx'),
      ]),
    );
  });

  it.each(patterns)('$file: $pattern compiles with the v flag, as browsers compile it', ({ pattern }) => {
    // The browser wraps the attribute as ^(?:pattern)$ with the v flag (HTML's pattern attribute).
    expect(() => new RegExp(`^(?:${pattern})$`, 'v')).not.toThrow();
    const name = new RegExp(`^(?:${pattern})$`, 'v');
    expect(name.test('my-name')).toBe(true);
    expect(name.test('-bad')).toBe(false);
  });
});
