import { describe, expect, it } from 'vitest';
import type { AccessRequest } from '@pilothouse/wire/types';
import { translator } from '../i18n';
import { accessColumns } from '../features/access/access-columns';
import { portForwardColumns } from '../features/portforwards/portforward-columns';
import type { PortForward } from '../features/portforwards/port-forward-types';
import { reportColumns } from '../features/reports/report-columns';
import type { Report } from '../features/reports/report-types';
import type { Column } from './DataTable';

const none = (): null => null;

/** The Cluster column of a table: its header and what a row shows in it. */
function clusterCell<T>(columns: Column<T>[], row: T): { header: unknown; cell: unknown; sort: unknown } | undefined {
  const column = columns.find((candidate) => candidate.key === 'cluster');
  return column && { header: column.header, cell: column.cell(row), sort: column.sortValue?.(row) };
}

describe('the Cluster column of lists of objects about a cluster', () => {
  it('shows the cluster of each access request, port forward and report, in every language', () => {
    const request = { id: 'r', cluster: 'prod', requester: 'alice', namespaces: [], resources: [], ttl: '1h' } as unknown as AccessRequest;
    const forward = { id: 'f', cluster: 'staging', namespace: 'n', pod: 'p', podPort: 80 } as unknown as PortForward;
    const report = { id: 'x', cluster: 'b', type: 'cluster-overview', format: 'pdf' } as unknown as Report;
    const en = translator('en');
    expect(clusterCell(accessColumns(en, true, none), request)).toEqual({ header: 'Cluster', cell: 'prod', sort: 'prod' });
    expect(clusterCell(accessColumns(en, false, none), request)).toEqual({ header: 'Cluster', cell: 'prod', sort: 'prod' });
    expect(clusterCell(portForwardColumns(en, none), forward)).toEqual({ header: 'Cluster', cell: 'staging', sort: 'staging' });
    expect(clusterCell(reportColumns(en, none), report)).toEqual({ header: 'Cluster', cell: 'b', sort: 'b' });
    expect(clusterCell(reportColumns(translator('ko'), none), report)?.header).toBe('클러스터');
    expect(clusterCell(portForwardColumns(translator('ja'), none), forward)?.header).toBe('クラスター');
    expect(clusterCell(accessColumns(translator('zh'), false, none), request)?.header).toBe('集群');
  });

  it('keeps the other columns where they were', () => {
    const keys = (columns: Column<never>[]): string[] => columns.map((column) => column.key);
    expect(keys(accessColumns(translator('en'), true, none) as Column<never>[])).toEqual([
      'requester',
      'cluster',
      'namespace',
      'resource',
      'ttl',
      'reason',
      'phase',
      'created',
      'actions',
    ]);
    expect(keys(portForwardColumns(translator('en'), none) as Column<never>[])).toEqual([
      'cluster',
      'target',
      'address',
      'status',
      'message',
      'requester',
      'stop',
    ]);
    expect(keys(reportColumns(translator('en'), none) as Column<never>[])).toEqual([
      'type',
      'format',
      'cluster',
      'namespace',
      'progress',
      'requester',
      'created',
      'size',
      'actions',
    ]);
  });
});
