import { describe, expect, it } from 'vitest';

// The layers of web/src (docs/development/architecture.md): app shell → features → shared → i18n → api. An import
// points down the layers, or to another feature; no folder cycle (a feature counts as one folder,
// `features/<area>`). The app shell alone knows every page (app/StagePage.tsx); what features share
// (the API context, the router, resource targets and columns) lives in shared/.
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts'], { query: '?raw', import: 'default', eager: true });

const layers = ['api', 'i18n', 'shared', 'features', 'app', 'main.tsx'];

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

  it('finds a cycle and an upward arrow when there is one', () => {
    const looped = new Map([
      ['features/a', new Set(['features/b'])],
      ['features/b', new Set(['features/a', 'shared'])],
      ['shared', new Set(['api'])],
    ]);
    expect(foldersOnCycles(looped)).toEqual(['features/a', 'features/b']);
    expect(layerOf('app')).toBeGreaterThan(layerOf('features/a'));
  });

  it('knows every folder', () => {
    const folders = [...edges.keys()];
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((folder) => layerOf(folder) < 0)).toEqual([]);
  });

  it('lets imports point down: app → features → shared → i18n → api', () => {
    const upward = [...edges].flatMap(([from, targets]) => [...targets].filter((to) => layerOf(to) > layerOf(from)).map((to) => `${from} -> ${to}`));
    expect(upward.sort()).toEqual([]);
  });

  it('has no folder cycle (a feature is one folder)', () => {
    expect(foldersOnCycles(edges)).toEqual([]);
  });
});
