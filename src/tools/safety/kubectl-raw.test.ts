import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from './analyzer.js';
import { rawPathRefusal } from './kubectl-raw.js';

// kubectl sends `--raw` requests as written and ignores --dry-run with them (issue 23, findings 1 and 9).
const analyzer = new SafetyAnalyzer(safetyOptionsFromConfig(configSchema.parse({}).authorization.tool_approval, '/srv/pilothouse-files'));
const judge = async (tool: 'kubectl' | 'bash', command: string): Promise<{ type: string; blocked: boolean }> => {
  const report = await analyzer.analyze(tool, command);
  return { type: report.type, blocked: report.blocked };
};

describe('kubectl --raw is classified by its HTTP method, never as a dry run', () => {
  it.each([
    ['create --raw /api/v1/namespaces/kube-system/serviceaccounts/ctrl/token?dryRun=All -f body.json --dry-run=server', 'write'],
    ['create --raw /api/v1/namespaces/kube-system/serviceaccounts/ctrl/token -f body.json --dry-run=client', 'write'],
    ['replace --raw /api/v1/namespaces/x/configmaps/c?dryRun=All -f body.json --dry-run=server', 'write'],
    ['delete --raw /api/v1/namespaces/x/pods/victim --dry-run=server', 'dangerous'],
    ['delete --raw=/api/v1/namespaces/x/pods/victim?dryRun=All --dry-run=client', 'dangerous'],
    ['get --raw /api/v1/namespaces/x/pods?dryRun=All', 'read'],
    ['create --raw /apis/authentication.k8s.io/v1/tokenreviews -f review.json', 'write'],
    // without --raw the last --dry-run still makes a read
    ['delete pod victim -n x --dry-run=server', 'read'],
  ])('kubectl %s → %s', async (command, type) => {
    expect(await judge('kubectl', command)).toEqual({ type, blocked: false });
  });

  it('says why a raw write is not a dry run', async () => {
    const report = await analyzer.analyze('kubectl', 'delete --raw /api/v1/namespaces/x/pods/p --dry-run=server');
    expect(report.warnings).toContain('sends DELETE /api/v1/namespaces/x/pods/p as written (--raw: kubectl ignores --dry-run)');
    expect(report.warnings.join(' ')).not.toContain('dry run (server)');
  });
});

describe('blocked patterns see the path of a raw request', () => {
  it.each([
    ['kubectl', 'delete --raw /api/v1/namespaces/kube-system'],
    ['kubectl', 'delete --raw=/api/v1/namespaces/kube-system --dry-run=server'],
    ['kubectl', 'delete --raw /api/v1/namespaces/%6b%75%62%65-system'],
    ['kubectl', 'delete --raw https://10.0.0.1:6443/api/v1/namespaces/kube-system'],
    ['bash', 'kubectl delete --raw /api/v1/namespaces/kube-system'],
  ] as const)('%s %s is blocked', async (tool, command) => {
    expect(await judge(tool, command)).toMatchObject({ blocked: true });
  });

  it('spells a namespaced raw request as a kubectl command with its namespace', async () => {
    const custom = new SafetyAnalyzer({
      ...safetyOptionsFromConfig(configSchema.parse({}).authorization.tool_approval),
      blockedPatterns: [String.raw`\bdelete\s+(po|pod|pods)\s+\S+\s+(-n|--namespace)[= ]kube-system\b`],
    });
    expect((await custom.analyze('kubectl', 'delete --raw /api/v1/namespaces/kube-system/pods/etcd-0')).blocked).toBe(true);
    expect((await custom.analyze('kubectl', 'delete --raw /api/v1/namespaces/team/pods/etcd-0')).blocked).toBe(false);
  });

  it('does not block reads or other namespaces', async () => {
    expect(await judge('kubectl', 'get --raw /api/v1/namespaces/kube-system')).toEqual({ type: 'read', blocked: false });
    expect(await judge('kubectl', 'delete --raw /api/v1/namespaces/team')).toEqual({ type: 'dangerous', blocked: false });
  });
});

describe('a --raw path is sent as written, or refused (security review four, finding 13)', () => {
  it.each([
    ['/apis//v1/namespaces/x/secrets/y', 'an empty segment ("//")'],
    ['//api/v1', 'an empty segment ("//")'],
    ['/api/v1//', 'an empty segment ("//")'],
    ['/api/./v1', 'a "." segment'],
    ['/api/v1/namespaces/x/configmaps/../../y/secrets', 'a ".." segment'],
    ['/api/v1/..', 'a ".." segment'],
    ['/api/%2e%2E/v1', 'a ".." segment'],
    ['/api/%2e', 'a "." segment'],
  ])('refuses %s: it has %s', (path, what) => {
    expect(rawPathRefusal(path)).toBe(`--raw ${path}: the path has ${what}, which kubectl would not send as written; write the path without it`);
  });

  it('refuses a path that does not start with /', () => {
    expect(rawPathRefusal('api/v1')).toBe('--raw api/v1: the path must start with "/"');
  });

  it.each(['/', '/api', '/api/v1/', '/apis/apps/v1/namespaces/x/deployments/web', '/api/v1/pods?labelSelector=a/../b', '/api/v1/x..y', '/healthz/etcd'])(
    'sends %s as written',
    (path) => {
      expect(rawPathRefusal(path)).toBeUndefined();
    },
  );

  it.each([
    ['kubectl', 'get --raw /apis//v1/namespaces/x/secrets/y'],
    ['kubectl', 'delete --raw=/api/v1/namespaces/x/pods/../../y/pods/p'],
    ['bash', 'kubectl get --raw /apis//v1/namespaces/x/secrets/y'],
  ] as const)('the analysis refuses %s %s (no approval card shows a path kubectl would change)', async (tool, command) => {
    const report = await analyzer.analyze(tool, command);
    expect(report.refusal).toMatch(/the path has .* which kubectl would not send as written/);
  });
});
