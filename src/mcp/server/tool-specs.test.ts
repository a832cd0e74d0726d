import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from '../../tools/safety/index.js';
import { splitArguments } from '../../tools/builtin/index.js';
import { decide } from './call-gate.js';
import { commandLineOf } from './shell-quote.js';
import { serverToolSpecs, type CallPlan } from './tool-specs.js';

function plan(name: string, args: Record<string, unknown>): CallPlan {
  const spec = serverToolSpecs.find((candidate) => candidate.name === name)!;
  return spec.plan(args as never);
}

const analyzer = new SafetyAnalyzer(safetyOptionsFromConfig(configSchema.parse({}).authorization.tool_approval));

describe('server-mode tool plans', () => {
  it('builds kubectl argument lines', () => {
    expect(plan('kubectl', { command: 'kubectl get pods' }).command).toBe('get pods');
    expect(plan('kubectl_get', { resource: 'pods', namespace: 'all', selector: 'app=web', output: 'wide' }).command).toBe(
      'get pods --all-namespaces -l app=web -o wide',
    );
    expect(plan('kubectl_get', { resource: 'configmap', name: 'x', namespace: 'n', output: 'jsonpath={.data}' }).command).toBe(
      "get configmap x -n n -o 'jsonpath={.data}'",
    );
    expect(plan('kubectl_describe', { resource: 'pod', name: 'p' }).command).toBe('describe pod p');
    expect(plan('kubectl_logs', { pod: 'p', namespace: 'n' }).command).toBe('logs p -n n --tail 100');
    expect(plan('kubectl_logs', { pod: 'p', container: 'c', tail: 5, previous: true }).command).toBe('logs p -c c --tail 5 --previous');
    expect(plan('kubectl_apply', { manifest: 'kind: X', namespace: 'n', dry_run: true })).toMatchObject({
      command: 'apply -n n --dry-run=server -f {manifest}',
      manifest: 'kind: X',
    });
    expect(plan('bash', { command: 'ls', timeout: 5 })).toEqual({ tool: 'bash', command: 'ls', timeoutSeconds: 5 });
  });

  it('gives every tool an optional cluster argument and carries it into the plan', () => {
    for (const spec of serverToolSpecs) expect(Object.keys(spec.inputShape)).toContain('cluster');
    expect(plan('kubectl_get', { resource: 'pods', cluster: 'prod' })).toEqual({ tool: 'kubectl', command: 'get pods', cluster: 'prod' });
    expect(plan('bash', { command: 'ls', cluster: 'prod' })).toEqual({ tool: 'bash', command: 'ls', cluster: 'prod' });
    expect(plan('kubectl', { command: 'get pods' })).not.toHaveProperty('cluster');
  });

  it('quotes arguments so that splitting gives them back unchanged', () => {
    const argv = ['get', "it's", 'a b', 'x;rm -rf /', '$(id)'];
    expect(splitArguments(commandLineOf(argv))).toEqual({ ok: true, argv });
  });
});

describe('server-mode call gate', () => {
  const readOnly = { allowWrites: false, bash: false };
  it('lets reads through and refuses writes on a read-only server', async () => {
    expect(await decide(analyzer, readOnly, plan('kubectl_get', { resource: 'pods' }))).toMatchObject({ allowed: true });
    expect(await decide(analyzer, readOnly, plan('kubectl_apply', { manifest: 'x', dry_run: true }))).toMatchObject({ allowed: true });
    expect(await decide(analyzer, readOnly, plan('kubectl', { command: 'delete pod x' }))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('"dangerous"'),
    });
    expect(await decide(analyzer, { allowWrites: true, bash: false }, plan('kubectl', { command: 'delete pod x' }))).toMatchObject({ allowed: true });
  });

  it('refuses blocked patterns even with writes allowed, and bash unless enabled', async () => {
    const open = { allowWrites: true, bash: true };
    expect(await decide(analyzer, open, plan('kubectl', { command: 'delete ns kube-system' }))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('blocked pattern'),
    });
    expect(await decide(analyzer, open, plan('bash', { command: 'rm -rf /' }))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('blocked pattern'),
    });
    expect(await decide(analyzer, readOnly, plan('bash', { command: 'ls' }))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('mcp_server.bash'),
    });
    expect(await decide(analyzer, { allowWrites: false, bash: true }, plan('bash', { command: 'ls | wc -l' }))).toMatchObject({ allowed: true });
  });
});
