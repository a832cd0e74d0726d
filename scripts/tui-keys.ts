// Rewrites the key table of docs/user-guide/terminal-ui.md from the terminal UI's key map (src/tui/core/key-map.ts,
// the same map `?` shows), in English. `make tui-keys`; test/unit/tui-readme.test.ts checks it.
import { readFileSync, writeFileSync } from 'node:fs';
import { keyTable } from '../src/tui/core/key-map.js';

export const terminalUiPagePath = new URL('../docs/user-guide/terminal-ui.md', import.meta.url);
const englishPath = new URL('../locales/en/tui.json', import.meta.url);
const start = '<!-- tui-keys:start -->\n';
const end = '\n<!-- tui-keys:end -->';

/** The page with the text between its tui-keys markers replaced by the key map's table. */
export function pageWithKeys(page: string): string {
  const english = JSON.parse(readFileSync(englishPath, 'utf8')) as Record<string, string>;
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) throw new Error('docs/user-guide/terminal-ui.md has no tui-keys markers');
  return page.slice(0, from + start.length) + keyTable((action) => english[`tui.key.${action}`] ?? action) + page.slice(to);
}

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(terminalUiPagePath, pageWithKeys(readFileSync(terminalUiPagePath, 'utf8')));
