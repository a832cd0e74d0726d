import { describe, expect, it } from 'vitest';
import type { Finding, ReportSection, Severity } from '../document/document.js';
import { scoreSections, sectionScore } from './security-scoring.js';

const finding = (rule: string, severity: Severity, name = 'x'): Finding => ({ rule, severity, title: rule, object: { kind: 'Pod', name }, why: '', fix: '' });
const section = (id: string, findings: Finding[], status: ReportSection['status'] = 'ok'): ReportSection => ({
  id,
  title: id,
  status,
  tables: [],
  charts: [],
  findings,
});

describe('scores', () => {
  it('takes points per finding, capped per rule, never below 0', () => {
    expect(sectionScore([])).toBe(100);
    expect(sectionScore([finding('a', 'critical')])).toBe(80);
    expect(sectionScore(Array.from({ length: 50 }, (_, index) => finding('a', 'low', String(index))))).toBe(95);
    expect(sectionScore([finding('a', 'high'), finding('a', 'high', 'y'), finding('b', 'medium'), finding('c', 'info')])).toBe(100 - 16 - 3);
    const many = ['a', 'b', 'c', 'd'].flatMap((rule) => [finding(rule, 'critical'), finding(rule, 'critical', 'y')]);
    expect(sectionScore(many)).toBe(0);
  });

  it('averages the available sections; unavailable ones have no score', () => {
    const { sections, overall } = scoreSections([section('one', []), section('two', [finding('a', 'critical')]), section('three', [], 'unavailable')]);
    expect(sections.map((entry) => entry.score)).toEqual([100, 80, undefined]);
    expect(overall).toBe(90);
    expect(scoreSections([section('one', [], 'unavailable')]).overall).toBeUndefined();
  });
});
