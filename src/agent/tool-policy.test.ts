import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from '../tools/safety/index.js';
import type { Tool } from '../tools/types.js';
import { analyzeCall } from './tool-analysis.js';
import { planToolCall, type PolicyInput } from './tool-policy.js';

const safety = new SafetyAnalyzer(safetyOptionsFromConfig(configSchema.parse({}).authorization.tool_approval));

function tool(type: Tool['definition']['type'], name: string = type, server?: string): Tool {
  return {
    definition: { name, description: name, inputSchema: { type: 'object' }, type, readOnly: false, destructive: true, server },
    commandLine: (args) => (type === 'mcp' ? `mcp ${server} ${name} ${JSON.stringify(args)}` : `${type} ${String(args.command ?? args.path)}`),
    run: async () => ({ output: '', isError: false }),
  };
}

const plan = (role: PolicyInput['role'], tool: Tool | undefined, args: Record<string, unknown>, autoApproveReadonly = true) => {
  const call = { id: 'c', name: tool?.definition.name ?? 'ghost', arguments: args };
  const { report } = analyzeCall(safety, tool, call);
  return planToolCall({ role, toolFound: tool !== undefined, toolName: call.name, report, autoApproveReadonly });
};

describe('tool policy', () => {
  const kubectl = tool('kubectl');

  it.each([
    ['admin', 'get pods', 'run'],
    ['user', 'get pods', 'run'],
    ['user', 'scale deploy web --replicas=2', 'ask'],
    ['admin', 'delete pod web', 'ask'],
    ['admin', 'exec -it web -- sh', 'ask'],
  ] as const)('%s: kubectl %s → %s', (role, command, action) => {
    expect(plan(role, kubectl, { command }).action).toBe(action);
  });

  it('refuses: unknown tool, viewer, blocked pattern, dangerous for user', () => {
    expect(plan('admin', undefined, {})).toEqual({ action: 'refuse', status: 'error', reason: 'Tool not found: ghost' });
    expect(plan('viewer', kubectl, { command: 'get pods' })).toMatchObject({ action: 'refuse', status: 'forbidden' });
    expect(plan('admin', kubectl, { command: 'delete ns kube-system' })).toMatchObject({ action: 'refuse', status: 'blocked' });
    expect(plan('user', kubectl, { command: 'delete pod web' })).toMatchObject({ action: 'refuse', status: 'forbidden' });
    expect(plan('user', tool('bash'), { command: 'kubectl get pods -o name | xargs rm -rf' })).toMatchObject({ status: 'forbidden' });
  });

  it('asks for read-only commands when the user turned auto-approval off', () => {
    expect(plan('user', kubectl, { command: 'get pods' }, false).action).toBe('ask');
  });

  it('analyzes MCP calls by server and own tool name, file tools by path', () => {
    const mcp = tool('mcp', 'files__echo', 'files');
    const analyzed = analyzeCall(safety, mcp, { id: 'c', name: 'files__echo', arguments: { message: 'rm -rf /' } });
    expect(analyzed.report).toMatchObject({ blocked: true });
    expect(analyzeCall(safety, mcp, { id: 'c', name: 'files__echo', arguments: { message: 'hi' } }).report).toMatchObject({
      type: 'unknown',
      command: 'mcp files echo {"message":"hi"}',
    });
    expect(analyzeCall(safety, tool('read_file'), { id: 'c', name: 'read_file', arguments: { path: 'a.txt' } }).report.type).toBe('read');
    expect(analyzeCall(safety, tool('write_file'), { id: 'c', name: 'write_file', arguments: { path: 'a.txt' } }).report.type).toBe('write');
  });
});

describe('tool policy: refusals of the kubectl grammar', () => {
  it.each(['user', 'admin'] as const)('refuses a glued --server for %s with the reason, without asking', (role) => {
    const kubectl = tool('kubectl');
    const call = { id: 'c', name: 'kubectl', arguments: { command: 'get pods -shttps://host:8443' } };
    const { report } = analyzeCall(safety, kubectl, call);
    expect(planToolCall({ role, toolFound: true, toolName: 'kubectl', report, autoApproveReadonly: true })).toEqual({
      action: 'refuse',
      status: 'blocked',
      reason: 'Blocked: --server chooses the API server; the service sets it; it was not run.',
    });
  });
});
