import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyTable } from '../../src/tui/core/key-map.js';

const root = join(import.meta.dirname, '..', '..');
const english = JSON.parse(readFileSync(join(root, 'locales', 'en', 'tui.json'), 'utf8')) as Record<string, string>;

describe('the terminal UI keys of docs/user-guide/terminal-ui.md', () => {
  it('are the key map, as `?` shows it (regenerate with keyTable() when a key changes)', () => {
    const readme = readFileSync(join(root, 'docs', 'user-guide', 'terminal-ui.md'), 'utf8');
    const start = readme.indexOf('<!-- tui-keys:start -->\n');
    const end = readme.indexOf('\n<!-- tui-keys:end -->');
    expect(start).toBeGreaterThan(0);
    const documented = readme.slice(start + '<!-- tui-keys:start -->\n'.length, end);
    expect(documented).toBe(keyTable((action) => english[`tui.key.${action}`] ?? action));
  });
});
