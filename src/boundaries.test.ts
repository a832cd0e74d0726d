import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const sourceRoot = dirname(fileURLToPath(import.meta.url));

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** The src-relative folders a file imports from (relative imports only). */
function importedFolders(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => relative(sourceRoot, resolve(dirname(file), specifier)));
}

function violations(folder: string, forbidden: (target: string) => boolean): string[] {
  const start = join(sourceRoot, folder);
  const files = statSync(start).isDirectory() ? filesUnder(start) : [start];
  return files.flatMap((file) =>
    importedFolders(file)
      .filter(forbidden)
      .map((target) => `${relative(sourceRoot, file)} imports ${target}`),
  );
}

/** Import boundaries (STYLE habit 12), so modules can be reasoned about and reused alone. */
describe('module boundaries', () => {
  it('crds/ imports nothing else in src/', () => {
    expect(violations('crds', (target) => !target.startsWith('crds/'))).toEqual([]);
  });

  it('errors.ts imports nothing else in src/', () => {
    expect(violations('errors.ts', () => true)).toEqual([]);
  });

  it('the agent loop and the MCP modules never import each other', () => {
    expect(violations('agent', (target) => target.startsWith('mcp/'))).toEqual([]);
    expect(violations('mcp', (target) => target.startsWith('agent/'))).toEqual([]);
  });

  it('tools/ (shared by agent and MCP) imports neither', () => {
    expect(violations('tools', (target) => target.startsWith('agent/') || target.startsWith('mcp/') || target.startsWith('http/'))).toEqual([]);
  });

  it('llm/ and store/ know nothing of HTTP', () => {
    expect(violations('llm', (target) => target.startsWith('http/'))).toEqual([]);
    expect(violations('store', (target) => target.startsWith('http/'))).toEqual([]);
  });
});
