import { describe, expect, it } from 'vitest';
import { attackCorpus, attackFilesRoot } from '../../../test/fixtures/safety/attack-corpus.js';
import { configSchema } from '../../config/schema.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from './analyzer.js';

const analyzer = new SafetyAnalyzer(safetyOptionsFromConfig(configSchema.parse({}).authorization.tool_approval, attackFilesRoot));

describe('attack corpus', () => {
  it('holds at least 60 lines, 20 of them for the end-to-end test', () => {
    expect(attackCorpus.length).toBeGreaterThanOrEqual(60);
    expect(attackCorpus.filter((entry) => entry.e2e).length).toBeGreaterThanOrEqual(20);
  });

  it.each(attackCorpus.map((entry) => [entry.tool, JSON.stringify(entry.command), entry]))('%s %s', (_tool, _shown, entry) => {
    const report = analyzer.analyzeSync(entry.tool, entry.command);
    const seen = report.blocked ? 'refused' : report.type;
    expect(seen, report.warnings.join('; ')).toBe(entry.expect);
    if (entry.expect === 'refused') {
      expect(report.refusal ?? `blocked pattern ${report.blockedBy ?? ''}`).toMatch(entry.reason ?? /./);
      expect(report.requiresApproval).toBe(true);
    } else expect(report.requiresApproval).toBe(entry.expect !== 'read');
  });
});
