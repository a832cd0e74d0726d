import { describe, expect, it } from 'vitest';
import { ansiToHtml, terminalPage } from '../../scripts/ansi-html.js';

// scripts/ansi-html.ts draws tmux captures (capture-pane -e) for the README screenshots of the terminal UI.
describe('ansiToHtml', () => {
  it('turns SGR colours and attributes into styled spans and drops other sequences', () => {
    const html = ansiToHtml('\x1b[1m\x1b[36mPilothouse\x1b[0m ok \x1b[38;5;196mred\x1b[39m \x1b[7msel\x1b[27m\x1b[?25l');
    expect(html).toContain('<span style="color:#94e2d5;font-weight:bold">Pilothouse</span>');
    expect(html).toContain('<span style="color:#cdd6f4"> ok </span>');
    expect(html).toContain('<span style="color:rgb(255,0,0)">red</span>');
    expect(html).toContain('<span style="color:#11111b;background:#cdd6f4">sel</span>');
    expect(html).not.toContain('\x1b');
  });

  it('escapes HTML and gives each wide (CJK) character two cells', () => {
    const html = ansiToHtml('<a> 이름');
    expect(html).toContain('&lt;a&gt; ');
    expect(html).toContain('<i style="width:2ch">이</i><i style="width:2ch">름</i>');
    expect(terminalPage('x\n\n', 'title')).toContain('<pre id="screen">');
  });
});
