import stringWidth from 'string-width';

// Turns a terminal screen captured with `tmux capture-pane -e -p` (text with SGR colour sequences) into an
// HTML page that draws it like a terminal: used by scripts/tui-screenshots.ts to render README screenshots.

interface Style {
  foreground?: string;
  background?: string;
  bold: boolean;
  dim: boolean;
  inverse: boolean;
  underline: boolean;
}

/** The 16 ANSI colours of a dark terminal theme. */
const palette = [
  '#1e1e2e',
  '#f38ba8',
  '#a6e3a1',
  '#f9e2af',
  '#89b4fa',
  '#f5c2e7',
  '#94e2d5',
  '#bac2de',
  '#585b70',
  '#f38ba8',
  '#a6e3a1',
  '#f9e2af',
  '#89b4fa',
  '#f5c2e7',
  '#94e2d5',
  '#ffffff',
];
const defaultForeground = '#cdd6f4';
const defaultBackground = '#11111b';

/** Colour n of the 256-colour table (16 ANSI, 6×6×6 cube, 24 greys). */
function colour256(index: number): string {
  if (index < 16) return palette[index] ?? defaultForeground;
  if (index >= 232) {
    const level = 8 + (index - 232) * 10;
    return `rgb(${level},${level},${level})`;
  }
  const cube = index - 16;
  const level = (value: number): number => (value === 0 ? 0 : 55 + value * 40);
  return `rgb(${level(Math.floor(cube / 36))},${level(Math.floor(cube / 6) % 6)},${level(cube % 6)})`;
}

/** An extended colour (38;5;n or 38;2;r;g;b) starting at codes[at]; returns the colour and how many codes it took. */
function extended(codes: number[], at: number): { colour?: string; used: number } {
  if (codes[at + 1] === 5) return { colour: colour256(codes[at + 2] ?? 0), used: 3 };
  if (codes[at + 1] === 2) return { colour: `rgb(${codes[at + 2] ?? 0},${codes[at + 3] ?? 0},${codes[at + 4] ?? 0})`, used: 5 };
  return { used: 1 };
}

const plain = (): Style => ({ bold: false, dim: false, inverse: false, underline: false });

const flags: Record<number, Partial<Style>> = {
  1: { bold: true },
  2: { dim: true },
  4: { underline: true },
  7: { inverse: true },
  22: { bold: false, dim: false },
  24: { underline: false },
  27: { inverse: false },
  39: { foreground: undefined },
  49: { background: undefined },
};

/** Applies one SGR parameter at codes[at]; returns how many codes it took. */
function applyCode(style: Style, codes: number[], at: number): number {
  const code = codes[at] ?? 0;
  if (code === 0) Object.assign(style, plain(), { foreground: undefined, background: undefined });
  else if (flags[code]) Object.assign(style, flags[code]);
  else if (code >= 30 && code <= 37) style.foreground = palette[code - 30];
  else if (code >= 90 && code <= 97) style.foreground = palette[code - 90 + 8];
  else if (code >= 40 && code <= 47) style.background = palette[code - 40];
  else if (code >= 100 && code <= 107) style.background = palette[code - 100 + 8];
  else if (code === 38 || code === 48) {
    const { colour, used } = extended(codes, at);
    if (code === 38) style.foreground = colour;
    else style.background = colour;
    return used;
  }
  return 1;
}

function applySgr(style: Style, parameters: string): void {
  const codes = parameters === '' ? [0] : parameters.split(';').map(Number);
  for (let at = 0; at < codes.length;) at += applyCode(style, codes, at);
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Keeps the terminal's grid: every wide character (CJK) gets exactly two cells, whatever font draws it. */
const gridded = (text: string): string =>
  [...text].map((character) => (stringWidth(character) > 1 ? `<i style="width:2ch">${escapeHtml(character)}</i>` : escapeHtml(character))).join('');

function css(style: Style): string {
  let foreground = style.foreground ?? defaultForeground;
  let background = style.background;
  if (style.inverse) [foreground, background] = [background ?? defaultBackground, foreground];
  const rules = [`color:${foreground}`];
  if (background) rules.push(`background:${background}`);
  if (style.bold) rules.push('font-weight:bold');
  if (style.dim) rules.push('opacity:0.6');
  if (style.underline) rules.push('text-decoration:underline');
  return rules.join(';');
}

/** The screen's text as HTML spans (one per styled run); other escape sequences are dropped. */
export function ansiToHtml(screen: string): string {
  const style = plain() as Style;
  const parts: string[] = [];
  const pattern = /\x1b\[([0-9;]*)m|\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]/g;
  let last = 0;
  const text = (piece: string): void => {
    if (piece) parts.push(`<span style="${css(style)}">${gridded(piece)}</span>`);
  };
  for (const match of screen.matchAll(pattern)) {
    text(screen.slice(last, match.index));
    if (match[1] !== undefined) applySgr(style, match[1]);
    last = match.index + match[0].length;
  }
  text(screen.slice(last));
  return parts.join('');
}

/** A whole page: the screen in a terminal-like box, monospace with CJK fallback fonts (two cells wide). */
export function terminalPage(screen: string, title: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>
body{margin:0;background:${defaultBackground}}
pre{margin:0;padding:14px 16px;display:inline-block;background:${defaultBackground};color:${defaultForeground};
font:15px/1.17 "DejaVu Sans Mono","WenQuanYi Zen Hei Mono","Noto Sans Mono CJK KR","Noto Sans Mono CJK JP",monospace}
i{font-style:normal;display:inline-block;text-align:center;overflow:hidden;vertical-align:top}
</style></head><body><pre id="screen">${ansiToHtml(screen.replace(/\n+$/, ''))}</pre></body></html>`;
}
