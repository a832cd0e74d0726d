import { describe, expect, it } from 'vitest';
import { appendCapped, linePrefixer, matchingLines, maxLogChars } from './log-lines';

describe('log lines', () => {
  it('prefixes whole lines with the container and waits for partial ones', () => {
    const prefixer = linePrefixer('app');
    expect(prefixer.push('one\ntw')).toBe('[app] one\n');
    expect(prefixer.push('o\n')).toBe('[app] two\n');
    expect(prefixer.push('three')).toBe('');
    expect(prefixer.flush()).toBe('[app] three\n');
  });

  it('keeps matching lines only', () => {
    expect(matchingLines('GET /a\nPOST /b\nget /c', 'get')).toBe('GET /a\nget /c');
    expect(matchingLines('a\nb', ' ')).toBe('a\nb');
  });

  it('caps the text', () => {
    expect(appendCapped('x'.repeat(maxLogChars), 'yz').endsWith('yz')).toBe(true);
    expect(appendCapped('x'.repeat(maxLogChars), 'yz')).toHaveLength(maxLogChars);
  });
});
