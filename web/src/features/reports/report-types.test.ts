import { describe, expect, it } from 'vitest';
import { formatSize, withReport, type Report } from './report-types';

const base: Report = { id: 'r1', type: 'cluster-overview', format: 'pdf', status: 'generating', progress: 10, createdAt: '2026-01-01T00:00:00Z' };

describe('reports', () => {
  it('replaces a report in place and adds new ones on top', () => {
    const rows = withReport([base], { ...base, progress: 60 });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.progress).toBe(60);
    expect(withReport(rows, { ...base, id: 'r2' }).map((row) => row.id)).toEqual(['r2', 'r1']);
  });

  it('formats sizes', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(1536)).toBe('1.5 KiB');
    expect(formatSize(undefined)).toBe('');
  });
});
