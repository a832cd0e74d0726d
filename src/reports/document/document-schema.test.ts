import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportJsonSchema } from './document-schema.js';

describe('report JSON schema', () => {
  it('docs/report.schema.json is generated from the document schema (run make report-schema)', () => {
    const published: unknown = JSON.parse(readFileSync(new URL('../../../docs/report.schema.json', import.meta.url), 'utf8'));
    expect(published).toEqual(reportJsonSchema());
  });
});
