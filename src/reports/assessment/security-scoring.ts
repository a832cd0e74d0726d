import type { Finding, ReportSection, Severity } from '../document/document.js';

/**
 * Points one finding takes off its section's 100, and the most one rule may take off however many
 * objects it names (so one widespread issue cannot hide whether others exist). docs/user-guide/reports-scoring.md.
 */
export const penalties: Record<Severity, { each: number; cap: number }> = {
  critical: { each: 20, cap: 40 },
  high: { each: 8, cap: 24 },
  medium: { each: 3, cap: 12 },
  low: { each: 1, cap: 5 },
  info: { each: 0, cap: 0 },
};

/** A section's score: 100 minus, per rule and severity, min(cap, each × findings); never below 0. */
export function sectionScore(findings: readonly Finding[]): number {
  const perRule = new Map<string, { severity: Severity; findings: number }>();
  for (const finding of findings) {
    const key = `${finding.rule}\u0000${finding.severity}`;
    const entry = perRule.get(key) ?? { severity: finding.severity, findings: 0 };
    entry.findings += 1;
    perRule.set(key, entry);
  }
  let lost = 0;
  for (const { severity, findings: amount } of perRule.values()) lost += Math.min(penalties[severity].cap, penalties[severity].each * amount);
  return Math.max(0, 100 - lost);
}

/** Scores the available sections; the overall score is their mean (unavailable sections have none and do not count). */
export function scoreSections(sections: ReportSection[]): { sections: ReportSection[]; overall?: number } {
  const scored = sections.map((section) => (section.status === 'ok' ? { ...section, score: sectionScore(section.findings) } : section));
  const scores = scored.flatMap((section) => (section.score === undefined ? [] : [section.score]));
  const overall = scores.length > 0 ? Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length) : undefined;
  return { sections: scored, overall };
}
