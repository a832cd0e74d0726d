import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers of src/ (docs/development/architecture.md): an area may import areas of lower layers, and areas of
 * its own layer only where {@link sameLayer} allows it. Areas are the top-level folders (or files) of src/.
 */
const layers: readonly (readonly string[])[] = [
  ['errors', 'clock', 'version', 'redact', 'crds', 'log', 'config', 'net'],
  ['kube', 'store'],
  ['rbac'],
  [
    'auth',
    'audit',
    'access',
    'tools',
    'llm',
    'settings',
    'helm',
    'mcp',
    'agent',
    'reports',
    'investigations',
    'controllers',
    'prometheus',
    'problems',
    'usage',
  ],
  ['clusters'],
  ['http'],
  ['app', 'cli', 'tui'],
  ['modes'],
  ['main'],
];
const layerNames = ['foundation', 'platform', 'policy', 'areas', 'clusters', 'http', 'composition', 'modes', 'main'];

/** The imports allowed within one layer (importer → imported); every other same-layer import is refused. */
const sameLayer: Readonly<Record<string, readonly string[]>> = {
  net: ['config', 'errors'],
  auth: ['audit'],
  access: ['audit'],
  settings: ['llm'],
  mcp: ['tools', 'audit'],
  agent: ['tools', 'llm', 'settings', 'audit', 'usage', 'auth'],
  usage: ['llm'],
  reports: ['auth', 'helm'],
  investigations: ['agent', 'tools', 'llm', 'audit', 'usage'],
  controllers: ['access', 'mcp', 'reports', 'investigations'],
  problems: ['reports'],
  app: ['cli'],
};

const sourceRoot = dirname(fileURLToPath(import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path) ? [path] : [];
  });
}

/** The area of a src-relative path: its top-level folder, or the file name without extension. */
function areaOf(path: string): string {
  const [first = ''] = path.split('/');
  return path.includes('/') ? first : first.replace(/\.(tsx?|js)$/, '');
}

interface Arrow {
  file: string;
  target: string;
  from: string;
  to: string;
}

/** Every relative import of every source file: `import`, `import type`, `export … from`, `import()`, side-effect imports. */
function allArrows(): Arrow[] {
  const pattern = /(?:\b(?:import|export)\b[^'";]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
  return sourceFiles(sourceRoot).flatMap((path) => {
    const file = relative(sourceRoot, path);
    return [...readFileSync(path, 'utf8').matchAll(pattern)].map((match) => {
      const target = relative(sourceRoot, resolve(dirname(path), match[1] ?? ''));
      return { file, target, from: areaOf(file), to: areaOf(target) };
    });
  });
}

function layerOf(area: string): number {
  return layers.findIndex((members) => members.includes(area));
}

/** The rule an arrow breaks, or undefined when it is allowed. */
function brokenRule(arrow: Arrow): string | undefined {
  const { from, to } = arrow;
  if (from === to) return undefined;
  const [fromLayer, toLayer] = [layerOf(from), layerOf(to)];
  if (fromLayer < 0) return `${from} has no layer: add it to the layers of src/boundaries.test.ts and docs/development/architecture.md`;
  if (toLayer < 0) return `${to} has no layer: add it to the layers of src/boundaries.test.ts and docs/development/architecture.md`;
  if (toLayer > fromLayer) return `${from} (${layerNames[fromLayer]}) may not import ${to} (${layerNames[toLayer]}): imports point down only`;
  if (toLayer === fromLayer && !(sameLayer[from] ?? []).includes(to))
    return `${from} may not import ${to}: same layer (${layerNames[fromLayer]}), and the same-layer rules allow ${from} only ${(sameLayer[from] ?? []).join(', ') || 'nothing'}`;
  return undefined;
}

/** A file's node in the folder graph: its folder, or for the files directly in src/ the file's area. */
function folderOf(path: string): string {
  const folder = dirname(path);
  return folder === '.' ? areaOf(path) : folder;
}

/** The cycles of the folder graph (every folder of src/, nested ones too), as `a → b → a`. */
function folderCycles(arrows: Arrow[]): string[] {
  const edges = new Map<string, Set<string>>();
  for (const { file, target } of arrows) {
    const [from, to] = [folderOf(file), folderOf(target)];
    if (from === to) continue;
    edges.set(from, (edges.get(from) ?? new Set()).add(to));
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]): void => {
    state.set(node, 'open');
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(node, 'done');
  };
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node, [node]);
  return cycles;
}

/** The source file an import names (`./x.js` is `x.ts` or `x.tsx`), or undefined for other files (JSON, assets). */
function sourceFileOf(target: string, files: ReadonlySet<string>): string | undefined {
  const base = target.replace(/\.(js|jsx|ts|tsx)$/, '');
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => files.has(candidate));
}

/**
 * The strongly connected components of more than one file (Tarjan): files that reach each other
 * through imports, `import type` included. A type cycle is a cycle too: it ties the files' meaning
 * together, and it is the first half of a runtime one.
 */
function fileCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) connect(next);
      if (stack.includes(next)) low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = stack.splice(stack.indexOf(node));
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node);
  return components;
}

/** The import graph of src/ by file. */
function fileGraph(arrows: Arrow[]): Map<string, Set<string>> {
  const files = new Set(sourceFiles(sourceRoot).map((path) => relative(sourceRoot, path)));
  const edges = new Map<string, Set<string>>();
  for (const { file, target } of arrows) {
    const imported = sourceFileOf(target, files);
    if (imported && imported !== file) edges.set(file, (edges.get(file) ?? new Set()).add(imported));
  }
  return edges;
}

describe('module boundaries (docs/development/architecture.md)', () => {
  const arrows = allArrows();

  it('finds the imports it judges', () => {
    expect(arrows.length).toBeGreaterThan(500);
    expect(arrows.some((arrow) => arrow.from === 'app' && arrow.to === 'http')).toBe(true);
  });

  it('lets every import point down the layers, or across only where the same-layer rules allow', () => {
    const broken = arrows.flatMap((arrow) => {
      const rule = brokenRule(arrow);
      return rule ? [`${arrow.file} imports ${arrow.target}: ${rule}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('has no cycle between folders', () => {
    expect(folderCycles(arrows)).toEqual([]);
  });

  it('has no cycle between files, type-only imports included', () => {
    const graph = fileGraph(arrows);
    expect(graph.get('reports/context/report-context.ts')?.size).toBeGreaterThan(0);
    expect(fileCycles(graph).map((component) => component.join(' ⇄ '))).toEqual([]);
  });

  it('finds a file cycle, a type-only one included', () => {
    const edges = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts', 'd.ts'])],
      ['d.ts', new Set<string>()],
    ]);
    expect(fileCycles(edges)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(fileCycles(new Map([['a.ts', new Set(['d.ts'])]]))).toEqual([]);
  });

  it('keeps rbac/ pure policy: no Koa and no HTTP types (the HTTP layer hands it plain attributes)', () => {
    const koa = /\bfrom\s*['"](?:koa|@koa\/[^'"]+)['"]/;
    const offenders = sourceFiles(join(sourceRoot, 'rbac')).filter((path) => koa.test(readFileSync(path, 'utf8')));
    expect(offenders.map((path) => relative(sourceRoot, path))).toEqual([]);
  });

  it('keeps the terminal UI a client of the HTTP API: src/tui imports nothing of the service (modes/tui.ts starts it)', () => {
    const reaching = arrows.filter((arrow) => arrow.from === 'tui' && arrow.to !== 'tui');
    expect(reaching.map((arrow) => `${arrow.file} imports ${arrow.target}`)).toEqual([]);
  });

  it('shares code with web/ through one local package alone, packages/wire (@pilothouse/wire), which imports only its own files and its declared npm dependencies', () => {
    const repository = dirname(sourceRoot);
    const manifest = JSON.parse(readFileSync(join(repository, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const local = Object.entries(manifest.dependencies).filter(([, spec]) => /^(file|link|workspace):/.test(spec));
    expect(local).toEqual([['@pilothouse/wire', 'file:packages/wire']]);
    expect(readdirSync(join(repository, 'packages'))).toEqual(['wire']);
    const wireSources = sourceFiles(join(repository, 'packages', 'wire'));
    expect(wireSources.length).toBeGreaterThan(1);
    const wire = JSON.parse(readFileSync(join(repository, 'packages', 'wire', 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const declared = Object.keys(wire.dependencies ?? {});
    const specifiers = /^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/gm;
    const foreign = wireSources.flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(specifiers)]
        .map((match) => match[1] ?? match[2] ?? '')
        .filter((target) => !/^\.\/[\w-]+\.ts$/.test(target) && !declared.includes(target))
        .map((target) => `${relative(repository, path)} imports ${target}`),
    );
    expect(foreign).toEqual([]);
    expect(declared).toEqual(['eventsource-parser']);
  });

  it('keeps the whole composition in src/app: nothing below it imports a composition module', () => {
    const upward = arrows.filter((arrow) => arrow.to === 'app' && !['app', 'modes', 'main'].includes(arrow.from));
    expect(upward.map((arrow) => `${arrow.file} imports ${arrow.target}`)).toEqual([]);
  });
});
