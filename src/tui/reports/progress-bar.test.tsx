import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { barCells, ProgressBar, progressText } from './progress-bar.js';

describe('the report progress bar', () => {
  it('fills with block characters in proportion to the percentage, always the same width', () => {
    expect(barCells(0, 10, false)).toBe('░░░░░░░░░░');
    expect(barCells(50, 10, false)).toBe('█████░░░░░');
    expect(barCells(100, 10, false)).toBe('██████████');
    expect(barCells(55, 10, false)).toBe('█████▌░░░░');
    for (let percent = 0; percent <= 100; percent += 7) expect(stringWidth(barCells(percent, 12, false)), String(percent)).toBe(12);
  });

  it('draws # and - under --ascii', () => {
    expect(barCells(40, 10, true)).toBe('####------');
    expect(progressText(100, 8, true)).toBe('######## 100%');
    expect(progressText(7, 8, true)).toMatch(/^-{8} {3}7%$/);
  });

  it('keeps out-of-range values inside the bar', () => {
    expect(barCells(-5, 4, true)).toBe('----');
    expect(barCells(250, 4, true)).toBe('####');
    expect(barCells(Number.NaN, 4, true)).toBe('----');
  });

  it('renders the bar with its percentage', () => {
    const { lastFrame, rerender } = render(<ProgressBar percent={25} width={8} ascii={false} />);
    expect(lastFrame()).toBe('██░░░░░░  25%');
    rerender(<ProgressBar percent={75} width={8} ascii={true} />);
    expect(lastFrame()).toBe('######--  75%');
  });
});
