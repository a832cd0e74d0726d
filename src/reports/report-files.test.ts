import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RestClient } from '../kube/rest-client.js';
import { ReportFiles } from './report-files.js';

describe('ReportFiles.sweep', () => {
  it('removes the files of reports that are gone and nothing else', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'report-files-'));
    for (const name of ['report-kept.pdf', 'report-gone.pdf', 'report-gone.csv', 'notes.txt', 'README']) writeFileSync(join(directory, name), 'x');
    // The sweep reads the directory only; it never calls the cluster.
    const files = new ReportFiles(undefined as unknown as RestClient, 'pilothouse', directory);
    expect(await files.sweep(new Set(['report-kept']), ['pdf', 'csv'])).toBe(2);
    expect(readdirSync(directory).sort()).toEqual(['README', 'notes.txt', 'report-kept.pdf']);
  });
});
