import { describe, expect, it } from 'vitest';
import { formatSize, withReport, type Report } from './report-types';

const base: Report = {
  id: 'r1',
  cluster: 'home',
  type: 'cluster-overview',
  format: 'pdf',
  namespace: '',
  status: 'generating',
  progress: 10,
  message: null,
  requester: null,
  createdAt: '2026-01-01T00:00:00Z',
  completedAt: null,
  size: null,
  fileName: null,
  conditions: [],
};

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
