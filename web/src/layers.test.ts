import { describe, expect, it } from 'vitest';

// The layers of web/src (docs/architecture.md): app shell → features → shared → i18n → api. An import
// points down the layers, or to another feature; no folder cycle (a feature counts as one folder,
// `features/<area>`). The debt lists below are what the layering has not reached yet: they may only
// shrink (an arrow or a cycle not listed fails), and an entry that no longer exists fails too, so the
// list is emptied as the code moves.
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts'], { query: '?raw', import: 'default', eager: true });

const layers = ['api', 'i18n', 'shared', 'features', 'app', 'main.tsx'];

/** Upward folder arrows still in the tree (`from -> to`): features reaching the app shell for its API context and router. */
const upwardDebt = [
  'features/access -> app',
  'features/admin -> app',
  'features/auth -> app',
  'features/chat -> app',
  'features/editor -> app',
  'features/helm -> app',
  'features/layout -> app',
  'features/llm -> app',
  'features/mcp -> app',
  'features/nodes -> app',
  'features/object -> app',
  'features/overview -> app',
  'features/palette -> app',
  'features/portforwards -> app',
  'features/reports -> app',
  'features/resources -> app',
  'features/settings -> app',
  'shared -> app',
];

/** The 19 folders of the one folder cycle still in the tree (through app/ and features/layout/StagePage.tsx). */
const cycleDebt = [
  'app',
  'features/access',
  'features/admin',
  'features/auth',
  'features/chat',
  'features/editor',
  'features/helm',
  'features/layout',
  'features/llm',
  'features/mcp',
  'features/nodes',
  'features/object',
  'features/overview',
  'features/palette',
  'features/portforwards',
  'features/reports',
  'features/resources',
  'features/settings',
  'shared',
];

/** `./features/helm/HelmPage.tsx` → `features/helm`; `./api/client.ts` → `api`; `./main.tsx` → `main.tsx`. */
function folderOf(path: string): string {
  const parts = path.replace(/^\.\//, '').split('/');
  if (parts[0] === 'features') return `features/${parts[1] ?? ''}`;
  return parts[0] ?? '';
}

function layerOf(folder: string): number {
  return layers.indexOf(folder.startsWith('features/') ? 'features' : folder);
}

/** `./features/a/B.tsx` importing `../../app/router` → `./app/router`. */
function resolved(file: string, specifier: string): string {
  const parts = file.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

function folderArrows(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [file, text] of Object.entries(sources)) {
    const pattern = /(?:\b(?:import|export)\b[^'";]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
    for (const match of text.matchAll(pattern)) {
      const [from, to] = [folderOf(file), folderOf(resolved(file, match[1] ?? ''))];
      if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  return edges;
}

/** The folders that sit on a cycle (members of a strongly connected component larger than one folder). */
function foldersOnCycles(edges: Map<string, Set<string>>): string[] {
  const reaches = (from: string, target: string): boolean => {
    const seen = new Set<string>();
    const queue = [...(edges.get(from) ?? [])];
    while (queue.length > 0) {
      const next = queue.shift() ?? '';
      if (next === target) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(edges.get(next) ?? []));
    }
    return false;
  };
  return [...edges.keys()].filter((folder) => reaches(folder, folder)).sort();
}

describe('web/src layers', () => {
  const edges = folderArrows();

  it('knows every folder', () => {
    const folders = [...edges.keys()];
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((folder) => layerOf(folder) < 0)).toEqual([]);
  });

  it('lets imports point down (app → features → shared → i18n → api), beyond the listed debt', () => {
    const upward = [...edges].flatMap(([from, targets]) => [...targets].filter((to) => layerOf(to) > layerOf(from)).map((to) => `${from} -> ${to}`));
    expect(upward.sort()).toEqual(upwardDebt);
  });

  it('has no folder cycle beyond the listed debt', () => {
    expect(foldersOnCycles(edges)).toEqual(cycleDebt);
  });
});
