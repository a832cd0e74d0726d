import { describe, expect, it } from 'vitest';
import { safetyCorpus } from '../../../test/fixtures/safety/corpus.js';
import { configSchema } from '../../config/schema.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from './analyzer.js';

/** The corpus is judged under the default config plus a files root (local kubectl files are relative to it). */
export const corpusFilesRoot = '/srv/pilothouse-files';
const analyzer = new SafetyAnalyzer(safetyOptionsFromConfig(configSchema.parse({}).authorization.tool_approval, corpusFilesRoot));

describe('safety corpus', () => {
  it('holds at least 200 command lines', () => {
    expect(safetyCorpus.length).toBeGreaterThanOrEqual(200);
  });

  it.each(safetyCorpus.map((entry) => [entry.tool, JSON.stringify(entry.command), entry]))('%s %s', async (_tool, _shown, entry) => {
    const report = await analyzer.analyze(entry.tool, entry.command);
    expect({ type: report.type, blocked: report.blocked }, report.warnings.join('; ')).toEqual({
      type: entry.type,
      blocked: entry.blocked,
    });
  });
});
