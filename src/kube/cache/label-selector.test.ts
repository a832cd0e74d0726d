import { describe, expect, it } from 'vitest';
import { isAppError } from '../../errors.js';
import { parseLabelSelector } from './label-selector.js';

const labels = { app: 'web', tier: 'front', 'example.com/team': 'a' };

describe('parseLabelSelector', () => {
  it('selects the way the API server does', () => {
    const cases: [string, boolean][] = [
      ['app=web', true],
      ['app==web', true],
      ['app!=web', false],
      ['app=web,tier=back', false],
      ['tier in (front, back)', true],
      ['tier notin (front)', false],
      ['missing notin (x)', true],
      ['example.com/team', true],
      ['!missing', true],
      ['!app', false],
      ['app in (web),tier', true],
      ['', true],
    ];
    for (const [selector, expected] of cases) expect(parseLabelSelector(selector).matches(labels), selector).toBe(expected);
  });

  it('refuses a malformed selector naming labelSelector', () => {
    for (const selector of ['app=(web', 'in (a)', 'app=web value', '-bad=x']) {
      try {
        parseLabelSelector(selector);
        expect.unreachable(selector);
      } catch (error) {
        expect(isAppError(error) && error.code, selector).toBe('VALIDATION_ERROR');
        expect(isAppError(error) && error.details.fields, selector).toHaveProperty('labelSelector');
      }
    }
  });
});
