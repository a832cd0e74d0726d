// Writes docs/development/adr.md, the list of every architecture decision record in docs/adr/ with its title, so
// a new ADR is reachable from docs/index.md. `make adr-index`; test/unit/docs-links.test.ts checks it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const adrIndexPath = fileURLToPath(new URL('../docs/development/adr.md', import.meta.url));
const adrFolder = fileURLToPath(new URL('../docs/adr/', import.meta.url));

const header = [
  '# Architecture decision records',
  '',
  'Decisions that others would question, each with its context, the choice and what it costs',
  '(`docs/adr/NNNN-title.md`; STYLE habit 13). A new decision gets the next number; `make adr-index` lists it here.',
  '',
  '| ADR | Decision |',
  '| --- | --- |',
];

/** The title of an ADR: its first heading without the `#` and the number (`0035: Many clusters` → `Many clusters`). */
function titleOf(file: string): string {
  const heading = readFileSync(`${adrFolder}${file}`, 'utf8').split('\n', 1)[0] ?? '';
  return heading.replace(/^#\s*\d{4}:?\s*/, '').replace(/\|/g, '\\|');
}

/** The index page: one row per ADR, in number order. */
export function adrIndex(): string {
  const files = readdirSync(adrFolder)
    .filter((name) => /^\d{4}-.+\.md$/.test(name))
    .sort();
  const rows = files.map((file) => `| [${file.slice(0, 4)}](../adr/${file}) | ${titleOf(file)} |`);
  return `${[...header, ...rows].join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(adrIndexPath, adrIndex());
