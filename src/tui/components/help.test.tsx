import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { Help } from './help.js';
import { createTranslate } from '../core/i18n.js';
import { keysOf } from '../core/key-map.js';

describe('the ? help', () => {
  it('lists exactly the keys of the current view, labelled from the catalogue', () => {
    const { lastFrame } = render(<Help view="nodes" readonly={false} t={createTranslate('en')} height={40} />);
    const frame = lastFrame() ?? '';
    expect(frame).toContain('Keys of the nodes view');
    for (const binding of keysOf('nodes', { readonly: false })) expect(frame).toContain(`<${binding.key}>`);
    expect(frame).toMatch(/<c>\s+cordon/);
    expect(frame).toMatch(/<r>\s+drain/);
    expect(frame).not.toContain('<l>');
    expect(frame).not.toContain('<s>');
  });

  it('leaves out write keys under --readonly', () => {
    const { lastFrame } = render(<Help view="pods" readonly t={createTranslate('en')} height={40} />);
    const frame = lastFrame() ?? '';
    expect(frame).toMatch(/<l>\s+logs/);
    for (const hidden of ['<ctrl-d>', '<e>', '<s>', '<shift-f>']) expect(frame).not.toContain(hidden);
  });

  it('speaks the chosen language', () => {
    const korean = render(<Help view="pods" readonly={false} t={createTranslate('ko')} height={40} />).lastFrame() ?? '';
    expect(korean).toContain('pods 화면의 키');
    expect(korean).toMatch(/<l>\s+로그/);
    const japanese = render(<Help view="logs" readonly={false} t={createTranslate('ja')} height={40} />).lastFrame() ?? '';
    expect(japanese).toMatch(/<w>\s+折り返し/);
    const chinese = render(<Help view="deployments" readonly={false} t={createTranslate('zh')} height={40} />).lastFrame() ?? '';
    expect(chinese).toMatch(/<s>\s+扩缩/);
  });

  it('splits into columns when the screen is short (80×24)', () => {
    const frame = render(<Help view="pods" readonly={false} t={createTranslate('en')} height={12} />).lastFrame() ?? '';
    expect(frame.split('\n').length).toBeLessThanOrEqual(12);
    expect(frame).toContain('<ctrl-c>');
  });
});
