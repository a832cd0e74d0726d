import { describe, expect, it } from 'vitest';
import { configSchema, defaultBlockedPatterns } from '../../config/schema.js';
import { SafetyAnalyzer, safetyOptionsFromConfig } from './analyzer.js';
import type { SafetyOptions } from './types.js';

const defaults = safetyOptionsFromConfig(configSchema.parse({}).authorization.tool_approval);
const analyzerWith = (overrides: Partial<SafetyOptions> = {}): SafetyAnalyzer => new SafetyAnalyzer({ ...defaults, ...overrides });

describe('SafetyAnalyzer reports', () => {
  it('fills every field of the contract report for a read command', async () => {
    expect(await analyzerWith().analyze('kubectl', 'get pods -n x')).toEqual({
      command: 'kubectl get pods -n x',
      type: 'read',
      requiresApproval: false,
      isDangerous: false,
      isInteractive: false,
      isReadOnly: true,
      blocked: false,
      warnings: [],
    });
  });

  it('accepts a kubectl command that already starts with the program name', async () => {
    const report = await analyzerWith().analyze('kubectl', 'kubectl delete pod x');
    expect(report.command).toBe('kubectl delete pod x');
    expect(report.type).toBe('dangerous');
  });

  it('explains what is dangerous', async () => {
    const report = await analyzerWith().analyze('bash', 'rm -rf build');
    expect(report).toMatchObject({ isDangerous: true, requiresApproval: true });
    expect(report.warnings).toContain('recursive forced removal');
  });

  it('names the blocked pattern', async () => {
    const report = await analyzerWith().analyze('bash', 'echo hi; rm -rf /');
    expect(report).toMatchObject({ blocked: true, blockedBy: defaultBlockedPatterns[0], requiresApproval: true });
  });

  it('fails closed on unparseable input', async () => {
    const report = await analyzerWith().analyze('bash', 'echo "open');
    expect(report).toMatchObject({ type: 'dangerous', requiresApproval: true });
    expect(report.warnings.join()).toMatch(/could not parse/);
  });

  it('marks interactive commands', async () => {
    expect(await analyzerWith().analyze('kubectl', 'exec -it x -- sh')).toMatchObject({ isInteractive: true, requiresApproval: true });
  });

  it('classifies the file tools by kind', async () => {
    expect((await analyzerWith().analyze('read_file', 'notes.txt')).type).toBe('read');
    expect((await analyzerWith().analyze('write_file', 'notes.txt')).type).toBe('write');
  });
});

describe('SafetyAnalyzer options', () => {
  it('asks approval for read-only commands when auto-approval is off', async () => {
    expect((await analyzerWith({ autoApproveReadonly: false }).analyze('kubectl', 'get pods')).requiresApproval).toBe(true);
  });

  it('lets unknown programs through when require_approval_unknown is off', async () => {
    expect((await analyzerWith({ requireApprovalUnknown: false }).analyze('bash', 'curl -s http://x')).requiresApproval).toBe(false);
    expect((await analyzerWith({ requireApprovalUnknown: true }).analyze('bash', 'curl -s http://x')).requiresApproval).toBe(true);
  });

  it('still asks approval for a write beside an unknown program when unknowns are let through', async () => {
    const report = await analyzerWith({ requireApprovalUnknown: false }).analyze('bash', 'curl x && kubectl scale deploy web --replicas=2');
    expect(report).toMatchObject({ type: 'write', requiresApproval: true });
  });

  it('uses the configured read-only programs', async () => {
    expect((await analyzerWith({ readonlyPrograms: [] }).analyze('bash', 'grep x file')).type).toBe('unknown');
    expect((await analyzerWith({ readonlyPrograms: ['curl'] }).analyze('bash', 'curl x')).type).toBe('read');
  });

  it('uses the configured blocked patterns', async () => {
    const analyzer = analyzerWith({ blockedPatterns: ['\\bscale\\b.*--replicas[= ]0\\b'] });
    expect((await analyzer.analyze('kubectl', 'scale deploy web --replicas=0')).blocked).toBe(true);
    expect((await analyzer.analyze('bash', 'rm -rf /')).blocked).toBe(false);
  });

  it('rejects an invalid pattern at construction', () => {
    expect(() => analyzerWith({ blockedPatterns: ['(unclosed'] })).toThrow(/invalid blocked pattern/);
  });
});

describe('SafetyAnalyzer.analyzeMcp', () => {
  const analyzer = analyzerWith({ readonlyMcpTools: ['pods_list', 'everything/echo'] });

  it('treats listed tools as read-only, by name or server/name', () => {
    expect(analyzer.analyzeMcp('kubernetes', 'pods_list', {}).type).toBe('read');
    expect(analyzer.analyzeMcp('everything', 'echo', { message: 'hi' })).toMatchObject({
      type: 'read',
      command: 'mcp everything echo {"message":"hi"}',
    });
    expect(analyzer.analyzeMcp('other', 'echo', { message: 'hi' }).type).toBe('unknown');
  });

  it('asks approval for unlisted tools', () => {
    expect(analyzer.analyzeMcp('kubernetes', 'pods_delete', { name: 'x' })).toMatchObject({ type: 'unknown', requiresApproval: true });
  });

  it('matches blocked patterns against the call and every string argument', () => {
    expect(analyzer.analyzeMcp('kubernetes', 'pods_exec', { command: ['rm', '-rf', '/'] }).blocked).toBe(true);
    expect(analyzer.analyzeMcp('kubernetes', 'run', { script: 'rm -rf /' }).blocked).toBe(true);
    expect(analyzer.analyzeMcp('kubernetes', 'run', { nested: { list: ['kubectl delete ns kube-system'] } }).blocked).toBe(true);
    // A blocked read-only tool is still a read: the pattern blocks it, the class says what it is.
    expect(analyzer.analyzeMcp('kubernetes', 'pods_list', { script: 'rm -rf /' })).toMatchObject({ blocked: true, type: 'read', requiresApproval: true });
  });
});

describe('a refusal is not a class (issue 26)', () => {
  // No files root (as in a default install): kubectl may name no local file.
  const analyzer = analyzerWith();
  it.each([
    ['kubectl', 'apply -f deploy.yaml', 'write', /no files root/],
    ['kubectl', '--context prod get nodes', 'read', /--context/],
    ['kubectl', 'port-forward svc/web 8080:80', 'interactive', /port-forward/],
    ['kubectl', 'cp web-0:/etc/hosts ./hosts', 'interactive', /no files root/],
    ['kubectl', 'proxy', 'interactive', /proxy/],
    ['kubectl', 'edit deploy web', 'interactive', /editor/],
    ['kubectl', 'config use-context prod', 'write', /kubectl config/],
    ['kubectl', 'delete pod x --server=https://evil:6443', 'dangerous', /--server/],
    ['kubectl', 'apply --prune -l app=web -f deploy.yaml', 'dangerous', /no files root/],
    ['kubectl', 'apply -f - --dry-run=server --as=admin', 'read', /--as/],
    ['kubectl', 'get pods | grep web', 'read', /one plain command/],
    ['bash', 'kubectl --context prod get nodes | grep Ready', 'read', /--context/],
  ])('%s %s: %s, blocked', (tool, command, type, reason) => {
    const report = analyzer.analyzeSync(tool, command);
    expect(report).toMatchObject({ type, blocked: true, requiresApproval: true, refusal: expect.stringMatching(reason) });
    expect(report.isDangerous).toBe(type === 'dangerous');
    expect(report.warnings.join('\n')).toMatch(/^refused: /m);
  });

  it('keeps the class of a line that matches a blocked pattern', () => {
    expect(analyzer.analyzeSync('kubectl', 'delete namespace kube-system')).toMatchObject({ type: 'dangerous', blocked: true });
    expect(analyzerWith({ blockedPatterns: ['get secrets'] }).analyzeSync('kubectl', 'get secrets -A')).toMatchObject({
      type: 'read',
      blocked: true,
      requiresApproval: true,
      blockedBy: 'get secrets',
    });
  });
});
