import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../test/helpers/csv.js';
import { sampleDocument } from '../../../test/fixtures/reports/sample-document.js';
import { reportDocumentSchema } from '../document/document-schema.js';
import { csvRenderer } from './csv.js';
import { htmlRenderer } from './html.js';
import { jsonRenderer } from './json.js';
import { markdownRenderer } from './markdown.js';
import { pdfRenderer } from './pdf.js';

describe('report renderers', () => {
  it('json is the document and matches the published schema', async () => {
    const parsed: unknown = JSON.parse((await jsonRenderer.render(sampleDocument())).toString('utf8'));
    expect(reportDocumentSchema.parse(parsed)).toEqual(sampleDocument());
  });

  it('csv has one row per finding with RFC 4180 quoting', async () => {
    const rows = parseCsv((await csvRenderer.render(sampleDocument())).toString('utf8'));
    expect(rows[0]).toEqual(['section', 'rule', 'severity', 'kind', 'namespace', 'name', 'title', 'why', 'fix']);
    expect(rows).toHaveLength(4);
    expect(rows[1]).toEqual([
      'RBAC review',
      'rbac.cluster-admin-binding',
      'critical',
      'ClusterRoleBinding',
      '',
      'seeded-admin-binding',
      'ServiceAccount seeded-admin is bound to cluster-admin',
      'Anyone holding the token controls the whole cluster, "including" Secrets, nodes & RBAC.',
      'Bind a namespaced Role with only the verbs the workload needs, then delete the binding.',
    ]);
    expect(rows[2]?.[8]).toBe('Set securityContext.privileged: false\nand drop capabilities.');
  });

  it('html is standalone and escapes what the cluster wrote', async () => {
    const page = (await htmlRenderer.render(sampleDocument())).toString('utf8');
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toMatch(/<link|src=|https?:\/\/(?!pilothouse)/);
    expect(page).toContain('metrics.k8s.io is not served');
    expect(page).toContain('Left out (not visible to alice): secret-team');
  });

  it('markdown keeps tables intact and escapes HTML', async () => {
    const text = (await markdownRenderer.render(sampleDocument())).toString('utf8');
    expect(text).toContain('# Security assessment');
    expect(text).toContain('Image nginx:latest \\| mutable tag');
    expect(text).toContain('\\<script\\>');
    expect(text).toContain('| node-119 | Ready |');
    expect(text).toContain('Unavailable: metrics.k8s.io is not served');
  });

  it('pdf has a title page, contents, the findings and several pages', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'report-pdf-'));
    const file = join(directory, 'report.pdf');
    writeFileSync(file, await pdfRenderer.render(sampleDocument()));
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(Number(/Pages:\s+(\d+)/.exec(info)?.[1])).toBeGreaterThan(4);
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    expect(fonts).toMatch(/Roboto.*yes/);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Contents');
    expect(text).toContain('ServiceAccount seeded-admin is bound to cluster-admin');
    expect(text).toContain('CPU requests per node');
    expect(text).toContain('node-119');
    expect(text).toContain('Unavailable: metrics.k8s.io is not served');
  });
});
