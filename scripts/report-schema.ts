// Writes docs/report.schema.json from the zod schema of the report document (src/reports/document/document-schema.ts).
// `--check` exits 1 when the file is stale. Run with: make report-schema
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { reportJsonSchema } from '../src/reports/document/document-schema.ts';

const target = fileURLToPath(new URL('../docs/report.schema.json', import.meta.url));
const text = `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== text) {
    console.error('docs/report.schema.json is stale: run make report-schema');
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
}
