import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The budget of the JavaScript a first visit downloads before anything renders (issue 15: < 250 KB gzip). */
export const initialBudgetKiB = 250;

interface ChunkLike {
  type: 'chunk' | 'asset';
  fileName: string;
  isEntry?: boolean;
  imports?: string[];
  code?: string;
}

/** The entry chunks and every chunk they import statically: what the browser loads before the app starts. */
export function initialChunks(bundle: Record<string, ChunkLike>): ChunkLike[] {
  const seen = new Set<string>();
  const queue = Object.values(bundle)
    .filter((item) => item.type === 'chunk' && item.isEntry)
    .map((item) => item.fileName);
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...(bundle[name]?.imports ?? []));
  }
  return [...seen].map((name) => bundle[name]).filter((item): item is ChunkLike => item !== undefined);
}

/**
 * Prints the gzip size of the initial JavaScript (entry plus its static imports; lazy pages, the
 * editor and the terminal are not in it) and fails the build when it is over the budget.
 */
export function initialBundleBudget(budgetKiB = initialBudgetKiB): Plugin {
  return {
    name: 'pilothouse-initial-bundle-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = initialChunks(bundle as unknown as Record<string, ChunkLike>);
      const bytes = chunks.reduce((sum, chunk) => sum + gzipSync(chunk.code ?? '').length, 0);
      const kib = bytes / 1024;
      const lazy = Object.values(bundle).filter((item) => item.type === 'chunk').length - chunks.length;
      const line = `initial JS: ${kib.toFixed(1)} KiB gzip in ${chunks.length} chunk(s) (budget ${budgetKiB} KiB); ${lazy} chunk(s) load on demand`;
      if (kib > budgetKiB) this.error(`${line}: over budget`);
      console.log(`\n${line}`);
    },
  };
}
