import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pageWithKeys, terminalUiPagePath } from '../../scripts/tui-keys.js';

describe('the terminal UI keys of docs/user-guide/terminal-ui.md', () => {
  it('are the key map, as `?` shows it (regenerate: make tui-keys)', () => {
    const page = readFileSync(terminalUiPagePath, 'utf8');
    expect(page).toContain('<!-- tui-keys:start -->\n| View | Key | Action |');
    expect(page === pageWithKeys(page), 'docs/user-guide/terminal-ui.md has stale keys: run make tui-keys and commit it').toBe(true);
  });
});
