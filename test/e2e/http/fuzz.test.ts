import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootDirectory } from '../../helpers/paths.js';
import { startPrometheus, type RunningPrometheus } from '../../helpers/prometheus.js';
import { startTestService, type TestService } from '../../helpers/service.js';

/**
 * Schemathesis (`make fuzz`, and a bounded run in `make test`) against a live Pilothouse on the
 * real test cluster, as admin and as viewer: every response must be documented by the OpenAPI
 * document (status, content type, headers, body schema) and none may be a 5xx. The stateful phase
 * follows the document's links (create → read → change → delete of access requests, port forwards,
 * reports, MCP servers and users).
 *
 * Left out, because a random call would damage the shared cluster, the host or the run itself:
 * - refresh and logout (end the fuzzer's own session): a third run fuzzes them alone with a session of their own;
 * - resource DELETE, node cordon/uncordon/drain, helm install/upgrade/rollback/uninstall and repository
 *   changes (act on the shared cluster; helm reaches out to random repository URLs);
 * - PUT /api/settings/llm (points the run's own pilot at random endpoints);
 * - the terminal (a WebSocket upgrade, not an HTTP operation);
 * - the live list (an endless event stream; test/e2e/kube/live-lists.test.ts covers it).
 * MCP server changes are fuzzed with no command allowed (mcp.allowed_commands: []), so none starts a process.
 */
export const sessionOperations = ['postApiAuthLogout', 'postApiAuthRefresh'];
export const excludedOperations = [
  ...sessionOperations,
  'deleteApiK8sResourceName',
  'postApiNodeCordon',
  'postApiNodeUncordon',
  'postApiNodeDrain',
  'postApiHelmInstall',
  'postApiHelmUpgrade',
  'postApiHelmReleasesNameRollback',
  'deleteApiHelmReleasesName',
  'postApiHelmRepositories',
  'postApiHelmRepositoriesUpdate',
  'deleteApiHelmRepositoriesName',
  'putApiSettingsLlm',
  'getApiPodsNameTerminal',
  'getApiK8sResourceWatch',
];

const schemathesis = join(rootDirectory, '.tools', 'schemathesis', 'bin', 'st');
const maxExamples = process.env.FUZZ_MAX_EXAMPLES ?? '4';
/**
 * Every check but the ones that judge requests rather than the document's answers: negative_data_rejection
 * counts the 413 of an oversized body as acceptance; positive_data_acceptance expects 2xx for names that
 * do not exist on the cluster; the stateful ones need the stateful phase.
 */
const defaultChecks = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'missing_required_header',
  'unsupported_method',
  'ignored_auth',
  'use_after_free',
  'ensure_resource_availability',
].join(',');
const checks = (process.env.FUZZ_CHECKS ?? defaultChecks).split(',');

interface FuzzRun {
  status: number | null;
  output: string;
  report: string;
}

/** Which operations a run covers: all but the excluded ones, or only the session-ending ones. */
function operationFilter(only?: string[]): string[] {
  if (only) return ['--include-operation-id-regex', `^(${only.join('|')})$`, '--phases', 'examples,coverage,fuzzing'];
  return ['--exclude-operation-id-regex', `^(${excludedOperations.join('|')})$`, '--phases', 'examples,coverage,fuzzing,stateful'];
}

function runSchemathesis(service: TestService, token: string, only?: string[]): Promise<FuzzRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'schemathesis-'));
  const reportPath = join(reportDir, 'report.json');
  const args = [
    'run',
    `${service.url}/api/openapi.json`,
    '--header',
    `Authorization: Bearer ${token}`,
    '--checks',
    checks.join(','),
    ...operationFilter(only),
    '--max-examples',
    maxExamples,
    '--request-timeout',
    '20',
    '--workers',
    '2',
    '--seed',
    '12',
    '--no-shrink',
    '--report',
    'ndjson',
    '--report-ndjson-path',
    reportPath,
  ];
  return new Promise((resolve) => {
    const child = spawn(schemathesis, args, { cwd: reportDir, env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A Schemathesis that cannot start (a broken virtualenv) fails the test instead of hanging it.
    child.on('error', (error) => resolve({ status: -1, output: `${output}\ncannot run ${schemathesis}: ${error.message}`, report: '' }));
    child.on('close', (status) => {
      const report = existsSync(reportPath) ? readFileSync(reportPath, 'utf8') : '';
      rmSync(reportDir, { recursive: true, force: true });
      resolve({ status, output, report });
    });
  });
}

let service: TestService;
/** The fuzzer's own accounts, under names it does not generate: a user it creates, locks or ends the sessions of is never one of them. */
const tokens = { admin: '', viewer: '', session: '' };

let prometheus: RunningPrometheus | undefined;

beforeAll(async () => {
  // A real Prometheus behind PromQL and history, so the fuzzer reaches their handlers (without one they answer 503).
  const now = Math.floor(Date.now() / 1000);
  const sample = { name: 'fuzz_up', labels: { namespace: 'default', pod: 'fuzz' }, samples: [[now - 60, 1] as [number, number]] };
  prometheus = await startPrometheus({ series: [sample] });
  service = await startTestService({ config: { mcp: { allowed_commands: [] }, prometheus: { url: prometheus.url } as never } });
  tokens.admin = (await service.createUser('admin')).token;
  tokens.viewer = (await service.createUser('viewer')).token;
  tokens.session = (await service.createUser('user')).token;
});

afterAll(async () => {
  await service?.close();
  await prometheus?.stop();
});

// Skipped only outside CI when `make schemathesis` has not run; in CI a missing Schemathesis fails.
describe.runIf(existsSync(schemathesis) || Boolean(process.env.CI))('Schemathesis against the OpenAPI document', () => {
  for (const role of ['admin', 'viewer'] as const) {
    it(`finds no 5xx and no response outside the document as ${role}`, { timeout: 600_000 }, async () => {
      const run = await runSchemathesis(service, tokens[role]);
      if (process.env.FUZZ_OUTPUT) writeFileSync(`${process.env.FUZZ_OUTPUT}.${role}.txt`, run.output);
      const summary = run.output.split('\n').filter((line) => /operations|test cases|failures|errors|passed|failed/i.test(line));
      console.log(`schemathesis as ${role}:\n${summary.join('\n')}`);
      expect(run.output).not.toMatch(/Server error|5\d\d Internal/);
      expect(run.status, run.output.slice(-20_000)).toBe(0);
    });
  }

  it('finds no 5xx in refresh and logout, with a session of their own', { timeout: 300_000 }, async () => {
    const run = await runSchemathesis(service, tokens.session, sessionOperations);
    expect(run.output).not.toMatch(/Server error|5\d\d Internal/);
    expect(run.status, run.output.slice(-20_000)).toBe(0);
  });
});
