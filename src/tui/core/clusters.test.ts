import { describe, expect, it } from 'vitest';
import { ApiClient } from '../api/client.js';
import type { ClusterList } from '../api/types.js';
import { applyEvent, emptyTranscript } from '../pilot/transcript.js';
import { transcriptLines } from '../pilot/transcript-lines.js';
import { createTranslate } from './i18n.js';
import { clusterNamed, clusterNames, pickerRows } from './clusters.js';
import { interpretCommand, runCommand } from './commands.js';
import type { Shell } from './shell.js';

const list: ClusterList = {
  home: 'home',
  items: [
    { name: 'home', source: 'home', reachable: true, version: 'v1.31.0', access: { role: 'admin', roles: [], write: true } },
    { name: 'staging', source: 'config', reachable: false, error: 'connect ECONNREFUSED', access: { role: 'admin', roles: [], write: true } },
  ],
};

/** A shell that records what `:` commands asked of it. */
function recordingShell(): { shell: Shell; switched: (string | undefined)[]; errors: string[] } {
  const switched: (string | undefined)[] = [];
  const errors: string[] = [];
  const shell = {
    t: createTranslate('en'),
    switchCluster: (name: string | undefined) => switched.push(name),
    report: (error: unknown) => errors.push(String(error)),
  } as unknown as Shell;
  return { shell, switched, errors };
}

describe('switching clusters in the terminal UI', () => {
  it(':ctx and :cluster alone open the picker; with a name they switch to it', () => {
    expect(interpretCommand('ctx', [])).toEqual({ cluster: undefined });
    expect(interpretCommand('cluster', [])).toEqual({ cluster: undefined });
    expect(interpretCommand('ctx staging', [])).toEqual({ cluster: 'staging' });
    expect(interpretCommand('cluster  prod-eu ', [])).toEqual({ cluster: 'prod-eu' });
    expect(interpretCommand('context staging', [])).toEqual({ cluster: 'staging' });
    expect(interpretCommand('CTX staging', [])).toEqual({ cluster: 'staging' });
  });

  it('runs a :ctx line as a switch (nothing else), and never quits', () => {
    const { shell, switched, errors } = recordingShell();
    expect(runCommand(shell, 'ctx staging', [])).toBe(false);
    expect(runCommand(shell, 'cluster', [])).toBe(false);
    expect(switched).toEqual(['staging', undefined]);
    expect(errors).toEqual([]);
  });

  it('finds a cluster by its exact name; an unknown name gets the list of clusters for its error line', () => {
    expect(clusterNamed(list, 'staging')?.source).toBe('config');
    expect(clusterNamed(list, 'Staging')).toBeUndefined();
    expect(createTranslate('en')('tui.error.unknownCluster', { cluster: 'prod', clusters: clusterNames(list) })).toBe(
      'no cluster "prod" (clusters: home, staging)',
    );
  });

  it('marks the current cluster and down clusters (with why) in the picker', () => {
    const rows = pickerRows(list, 'staging', { down: 'down', home: 'home' });
    expect(rows.map((row) => row.text)).toEqual(['  home     v1.31.0 (home)', '* staging  down: connect ECONNREFUSED']);
    expect(rows.map((row) => [row.reachable, row.current])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(pickerRows(list, undefined, { down: 'down', home: 'home' })[0]?.current).toBe(true);
  });

  it('names the current cluster on every request, stream and socket URL once one is chosen (none before)', () => {
    const client = new ApiClient('http://127.0.0.1:9/');
    expect(client.url('/api/k8s/pods', { namespace: 'a' })).toBe('http://127.0.0.1:9/api/k8s/pods?namespace=a');
    client.useCluster('staging');
    expect(client.cluster).toBe('staging');
    expect(client.url('/api/k8s/pods', { namespace: 'a' })).toBe('http://127.0.0.1:9/api/k8s/pods?namespace=a&cluster=staging');
    expect(client.url('/api/k8s/pods/watch')).toBe('http://127.0.0.1:9/api/k8s/pods/watch?cluster=staging');
    expect(client.url('/api/pods/web/terminal', { ticket: 't' })).toBe('http://127.0.0.1:9/api/pods/web/terminal?ticket=t&cluster=staging');
    expect(client.url('/api/portforward')).toBe('http://127.0.0.1:9/api/portforward?cluster=staging');
    client.useCluster(undefined);
    expect(client.url('/api/helm/releases')).toBe('http://127.0.0.1:9/api/helm/releases');
  });

  it('shows the cluster of a waiting tool call in bold above the approval prompt (when the event names one)', () => {
    const data = { tool: 'kubectl', command: 'kubectl delete pod web', id: 'c1', type: 'write' as const, requiresApproval: true, blocked: false, warnings: [] };
    const options = { width: 60, now: 1_000, timeoutMs: 30_000, expanded: new Set<string>(), t: createTranslate('en'), ascii: false };
    const withCluster = applyEvent(emptyTranscript, { event: 'tool_request', data: { ...data, cluster: 'staging' } as typeof data }, 1_000);
    const { lines } = transcriptLines(withCluster.entries, options);
    const clusterLine = lines.findIndex((line) => line.text === '  on cluster: staging');
    expect(lines[clusterLine]).toMatchObject({ bold: true });
    expect(lines[clusterLine + 1]?.text).toMatch(/Approve\? y yes/);
    const without = applyEvent(emptyTranscript, { event: 'tool_request', data }, 1_000);
    expect(transcriptLines(without.entries, options).lines.some((line) => line.text.includes('on cluster'))).toBe(false);
  });
});
