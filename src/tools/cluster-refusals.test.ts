import { describe, expect, it } from 'vitest';
import { accessNeededFor, refusalLines, usesCluster, withRefusals } from './cluster-refusals.js';
import type { ToolClusterRefusal } from './types.js';

const refusal = {
  verb: 'create',
  resource: 'configmaps',
  namespace: 'team',
  name: '',
  reason: 'this command ran as read-only and tried to create configmaps in namespace team; it needs approval',
};

describe('cluster refusals in tool results', () => {
  it('names verb, resource, name and namespace, then the reason', () => {
    expect(refusalLines([refusal, { ...refusal, verb: 'delete', resource: 'namespaces', namespace: 'prod', name: 'prod', reason: 'no' }])).toEqual([
      '[policy] refused create configmaps in ns/team: this command ran as read-only and tried to create configmaps in namespace team; it needs approval',
      '[policy] refused delete namespaces prod: no',
    ]);
  });

  it('appends the lines to the output, and leaves a result without refusals alone', () => {
    const result = { output: 'Error from server (Forbidden)\n[exit code 1]', isError: true, exitCode: 1 };
    expect(withRefusals(result, [])).toBe(result);
    expect(withRefusals(result, [refusal])).toEqual({ ...result, output: `${result.output}\n${refusalLines([refusal])[0]}` });
    expect(withRefusals({ output: '', isError: true }, [refusal]).output).toBe(refusalLines([refusal])[0]);
  });

  it('opens sessions for kubectl and bash only', () => {
    expect(['kubectl', 'bash', 'read_file', 'write_file', 'mcp'].map(usesCluster)).toEqual([true, true, false, false, false]);
  });
});

const refusalOf = (namespace: string, resource: string, accessNeeded?: ToolClusterRefusal['accessNeeded']): ToolClusterRefusal => ({
  verb: 'create',
  resource,
  namespace,
  name: '',
  reason: 'refused',
  ...(accessNeeded ? { accessNeeded } : {}),
});

describe('accessNeededFor', () => {
  it('is undefined when no refusal would be lifted by an access request', () => {
    expect(accessNeededFor([refusalOf('team', 'pods')])).toBeUndefined();
    expect(accessNeededFor([])).toBeUndefined();
  });

  it('merges the namespaces and resources of one permission', () => {
    const needed = accessNeededFor([
      refusalOf('b', 'configmaps', { permission: 'execute_write', namespaces: ['b'], resources: ['configmaps'] }),
      refusalOf('a', 'secrets', { permission: 'execute_write', namespaces: ['a'], resources: ['secrets'] }),
      refusalOf('a', 'configmaps', { permission: 'execute_write', namespaces: ['a'], resources: ['configmaps'] }),
      refusalOf('c', 'pods', { permission: 'delete', namespaces: ['c'], resources: ['pods'] }),
    ]);
    expect(needed).toEqual({ permission: 'execute_write', namespaces: ['a', 'b'], resources: ['configmaps', 'secrets'] });
  });

  it('asks for all namespaces when one refusal is cluster-scoped', () => {
    const needed = accessNeededFor([
      refusalOf('a', 'configmaps', { permission: 'execute_write', namespaces: ['a'], resources: ['configmaps'] }),
      refusalOf('', 'clusterroles', { permission: 'execute_write', namespaces: [], resources: ['clusterroles'] }),
    ]);
    expect(needed).toEqual({ permission: 'execute_write', namespaces: [], resources: ['clusterroles', 'configmaps'] });
  });
});
