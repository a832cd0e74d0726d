import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { wrapLines } from './text-view.js';

describe('describe lines', () => {
  it('wrap to the pane instead of being cut, continuation lines indented under their line', () => {
    const message = '  Warning  BackOff  2m  kubelet  Back-off restarting failed container web in pod payments-worker-7d9f_shop';
    const lines = wrapLines(['Name: payments-worker', message], 40);
    expect(lines[0]).toBe('Name: payments-worker');
    expect(lines.slice(1).join('').replace(/\s+/g, '')).toBe(message.replace(/\s+/g, ''));
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
    for (const line of lines.slice(2)) expect(line.startsWith('    ')).toBe(true);
  });

  it('counts wide characters as two cells', () => {
    for (const line of wrapLines(['이벤트 메시지가 아주 길어서 한 줄에 다 들어가지 않습니다 정말로'], 20)) expect(stringWidth(line)).toBeLessThanOrEqual(20);
  });
});
