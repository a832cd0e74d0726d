import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding, ReportDocument, ReportFormat, ReportType } from '../../../src/reports/document/document.js';
import { clusterKubeconfig, uniqueName, waitFor } from '../../helpers/cluster.js';
import { parseCsv } from '../../helpers/csv.js';
import { runKubectl, tryKubectl } from '../../helpers/kubectl.js';
import { rootDirectory } from '../../helpers/paths.js';
import { downloadReport, followReportEvents, pdfText, type Download } from '../../helpers/report-client.js';
import { reportTestRoles, useReportFindings, type ExpectedFinding } from '../../helpers/report-findings.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const seeded = useReportFindings('rp');
const kubeconfig = clusterKubeconfig();
const types: ReportType[] = ['security-assessment', 'cluster-overview'];
const formats: ReportFormat[] = ['json', 'pdf', 'html', 'markdown', 'csv'];
const schema = JSON.parse(readFileSync(`${rootDirectory}/docs/report.schema.json`, 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

let service: TestService;
let viewer: { username: string; token: string };
let other: { username: string; token: string };

beforeAll(async () => {
  service = await startTestService({
    config: {
      authorization: {
        roles: reportTestRoles(seeded.current),
      },
    },
  });
  viewer = await service.createUser('viewer', { roles: ['no-fenced'] });
  other = await service.createUser('user');
});
afterAll(async () => {
  await service?.close();
});

async function request(body: unknown, token = service.adminToken, target = service): Promise<string> {
  const response = await target.api<{ id: string; status: string }>('POST', '/api/reports', { token, body });
  expect(response.status, response.text).toBe(202);
  expect(response.body.status).toBe('generating');
  return response.body.id;
}

/** Requests a report, follows its progress stream to the end and downloads it. */
async function generate(type: ReportType, format: ReportFormat, token = service.adminToken, namespace = ''): Promise<{ id: string; file: Download }> {
  const id = await request({ type, format, namespace }, token);
  const events = await followReportEvents(service, id, token);
  const last = events.at(-1);
  expect(last?.event, JSON.stringify(last)).toBe('completed');
  const progress = events.map((event) => event.data.progress ?? 0);
  expect(progress).toEqual([...progress].sort((left, right) => left - right));
  expect(last?.data.progress).toBe(100);
  const file = await downloadReport(service, id, token);
  expect(file.status).toBe(200);
  expect(file.disposition).toMatch(new RegExp(`^attachment; filename="${type}-cluster-\\d{8}-\\d{4}\\.(pdf|html|md|json|csv)"$`));
  return { id, file };
}

const sameObject = (finding: Finding, expected: ExpectedFinding): boolean =>
  finding.rule === expected.rule &&
  finding.object.kind === expected.object.kind &&
  finding.object.name === expected.object.name &&
  (finding.object.namespace ?? '') === (expected.object.namespace ?? '');

describe('reports through the API', () => {
  for (const type of types) {
    it(`generates ${type} in every format with the same findings`, async () => {
      const { file: json } = await generate(type, 'json');
      expect(json.contentType).toContain('application/json');
      const document = JSON.parse(json.bytes.toString('utf8')) as ReportDocument;
      expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
      expect(document.type).toBe(type);
      const titles =
        type === 'security-assessment'
          ? seeded.current.expected.map((expected) => {
              const found = document.sections.flatMap((section) => section.findings).find((finding) => sameObject(finding, expected));
              expect(found, `${expected.rule} ${expected.object.name}`).toBeDefined();
              return found?.title ?? '';
            })
          : document.sections.map((section) => section.title);
      for (const format of formats.filter((entry) => entry !== 'json')) {
        const { file } = await generate(type, format);
        const text = format === 'pdf' ? checkPdf(file) : file.bytes.toString('utf8');
        expect(text).not.toContain(seeded.current.secretValue);
        if (format === 'csv') checkCsv(text, type === 'security-assessment' ? titles : []);
        else for (const title of titles) expect(normalise(text, format), `${format}: ${title}`).toContain(normalise(title, format));
      }
    }, 300_000);
  }

  it('answers 409 while generating, and 404 for other users and unknown ids', async () => {
    const id = await request({ type: 'security-assessment', format: 'pdf' }, viewer.token);
    const early = await service.api('GET', `/api/reports/${id}/download`, { token: viewer.token });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('CONFLICT');
    for (const [method, path] of [
      ['GET', `/api/reports/${id}`],
      ['GET', `/api/reports/${id}/download`],
      ['GET', `/api/reports/${id}/events`],
      ['DELETE', `/api/reports/${id}`],
    ] as const) {
      const response = await service.api(method, path, { token: other.token });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await service.api('GET', '/api/reports/report-unknown', { token: viewer.token })).status).toBe(404);
    const listed = await service.api<{ items: Array<{ id: string }> }>('GET', '/api/reports', { token: other.token });
    expect(listed.body.items.map((item) => item.id)).not.toContain(id);
    const all = await service.api<{ items: Array<{ id: string; requester: string }> }>('GET', '/api/reports', { token: service.adminToken });
    expect(all.body.items.find((item) => item.id === id)?.requester).toBe(viewer.username);
    await followReportEvents(service, id, viewer.token);
    const status = await service.api('GET', `/api/reports/${id}`, { token: viewer.token });
    expect(status.body).toMatchObject({ id, status: 'completed', progress: 100, requester: viewer.username, format: 'pdf' });
    expect(status.body.conditions.map((condition: { type: string; status: string }) => `${condition.type}=${condition.status}`)).toEqual([
      'Accepted=True',
      'Collected=True',
      'Rendered=True',
      'Stored=True',
      'Ready=True',
    ]);
    const deleted = await service.api('DELETE', `/api/reports/${id}`, { token: viewer.token });
    expect(deleted.body).toEqual({ id, status: 'deleted' });
    expect((await service.api('GET', `/api/reports/${id}`, { token: viewer.token })).status).toBe(404);
    const audit = await service.api<{ items: Array<{ user: string; resource: string; details: { command?: string } }> }>(
      'GET',
      `/api/audit?limit=200&user=${viewer.username}`,
      {
        token: service.adminToken,
      },
    );
    const commands = audit.body.items.filter((entry) => entry.resource === `report/${id}`).map((entry) => entry.details.command ?? '');
    expect(commands).toEqual(
      expect.arrayContaining([`download report ${id}`, `delete report ${id}`, 'request report security-assessment as pdf (whole cluster)']),
    );
  }, 180_000);

  it('rejects bad type, format and namespace naming the field', async () => {
    const cases = [
      [{ type: 'inventory', format: 'pdf' }, 'type'],
      [{ type: 'cluster-overview', format: 'docx' }, 'format'],
      [{ type: 'cluster-overview', format: 'pdf', namespace: 'Not_A_Namespace' }, 'namespace'],
      [{ type: 'cluster-overview', format: 'pdf', namespace: 'no-such-namespace-here' }, 'namespace'],
    ] as const;
    for (const [body, field] of cases) {
      const response = await service.api('POST', '/api/reports', { token: viewer.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(response.body.details.fields)).toContain(field);
    }
  });

  it("leaves a viewer's denied namespaces out and says so", async () => {
    const { file } = await generate('security-assessment', 'json', viewer.token);
    const document = JSON.parse(file.bytes.toString('utf8')) as ReportDocument;
    expect(document.requester).toBe(viewer.username);
    expect(document.scope.omittedNamespaces).toContain(seeded.current.fencedNamespace);
    const namespaces = document.sections.flatMap((section) => section.findings).map((finding) => finding.object.namespace);
    expect(namespaces).not.toContain(seeded.current.fencedNamespace);
  }, 180_000);
});

describe('a step that cannot read its data', () => {
  it('completes the report with that section marked unavailable', async () => {
    const blind = await service.createUser('viewer', { roles: ['no-metrics'] });
    const { id, file } = await generate('cluster-overview', 'json', blind.token);
    const document = JSON.parse(file.bytes.toString('utf8')) as ReportDocument;
    const unavailable = document.sections.filter((section) => section.status === 'unavailable');
    expect(unavailable.length).toBeGreaterThan(0);
    expect(unavailable[0]?.unavailableReason).toBeTruthy();
    const status = await service.api('GET', `/api/reports/${id}`, { token: blind.token });
    expect(status.body.status).toBe('completed');
  }, 120_000);
});

describe('Report objects created with kubectl', () => {
  it('must name the creating user as requester, and are generated with that Pilothouse user', async () => {
    const alice = await service.createUser('viewer');
    const grant = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: report-writers, namespace: ${service.namespace}}
rules: [{apiGroups: [pilothouse.dev], resources: [reports], verbs: [create, get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: report-writers, namespace: ${service.namespace}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: report-writers}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: ${alice.username}}, {apiGroup: rbac.authorization.k8s.io, kind: User, name: stranger}]
`;
    await runKubectl(kubeconfig, ['apply', '-f', '-'], grant);
    const report = (name: string, requester: string, extra = ''): string => `apiVersion: pilothouse.dev/v1alpha1
kind: Report
metadata: {name: ${name}, namespace: ${service.namespace}${extra}}
spec: {type: cluster-overview, format: markdown, namespace: ${seeded.current.openNamespace}, requester: ${requester}}
`;
    // The admission policy is installed at start; the API server may take a moment to load it.
    await waitFor(async () => {
      const forged = await tryKubectl(kubeconfig, ['--as', alice.username, 'create', '-f', '-'], report('forged', 'admin'));
      return forged.code !== 0 && forged.stderr.includes(`spec.requester must be the creating user (${alice.username})`);
    }, 30_000);
    const annotated = await tryKubectl(
      kubeconfig,
      ['--as', alice.username, 'create', '-f', '-'],
      report('annotated', alice.username, ', annotations: {pilothouse.dev/requester-role: admin}'),
    );
    expect(annotated.stderr).toContain('set by Pilothouse only');
    await runKubectl(kubeconfig, ['--as', alice.username, 'create', '-f', '-'], report('by-alice', alice.username));
    await runKubectl(kubeconfig, ['--as', 'stranger', 'create', '-f', '-'], report('by-stranger', 'stranger'));
    const events = await followReportEvents(service, 'by-alice', alice.token);
    expect(events.at(-1)?.event).toBe('completed');
    const file = await downloadReport(service, 'by-alice', alice.token);
    expect(file.bytes.toString('utf8')).toContain(`Requested by: ${alice.username}`);
    const stranger = await followReportEvents(service, 'by-stranger', service.adminToken);
    expect(stranger.at(-1)?.event).toBe('failed');
    expect(stranger.at(-1)?.data.message).toContain('stranger is not a Pilothouse user');
    expect((await downloadReport(service, 'by-stranger', service.adminToken)).status).toBe(409);
  }, 120_000);
});

describe('several replicas and retention', () => {
  it('downloads from a replica that did not generate the file, and deletes reports past retention', async () => {
    let now = Date.now();
    const leader = await startTestService({ clock: () => now, config: { reports: { retention: '1h' } } });
    await waitFor(() => leader.deps.controllers.isLeader, 30_000);
    const follower = await startTestService({ config: { kubernetes: { namespace: leader.namespace } } });
    try {
      const id = await request({ type: 'cluster-overview', format: 'csv', namespace: seeded.current.openNamespace }, leader.adminToken, leader);
      const events = await followReportEvents(follower, id, follower.adminToken);
      expect(events.at(-1)?.event).toBe('completed');
      const copy = await downloadReport(follower, id, follower.adminToken);
      const original = await downloadReport(leader, id, leader.adminToken);
      expect(copy.status).toBe(200);
      expect(copy.bytes.equals(original.bytes)).toBe(true);
      const leaderFile = join(leader.dataDir, 'reports', `${id}.csv`);
      expect(existsSync(leaderFile)).toBe(true);
      expect(existsSync(join(follower.dataDir, 'reports', `${id}.csv`))).toBe(false);
      now += 2 * 3_600_000;
      // Any change of the object makes the leader reconcile it again (level-based); past retention it goes.
      await runKubectl(kubeconfig, ['label', 'report', id, '-n', leader.namespace, 'touched=yes']);
      await waitFor(async () => (await tryKubectl(kubeconfig, ['get', 'report', id, '-n', leader.namespace])).code !== 0, 30_000);
      const chunks = await runKubectl(kubeconfig, ['get', 'secrets', '-n', leader.namespace, '-l', `pilothouse.dev/report=${id}`, '-o', 'name']);
      expect(chunks.trim()).toBe('');
      expect(existsSync(leaderFile)).toBe(false);
      // (The leader's clock is two hours on: its tokens have expired; ask the follower.)
      expect((await downloadReport(follower, id, follower.adminToken)).status).toBe(404);
    } finally {
      await follower.close();
      await leader.close();
    }
  }, 180_000);
});

describe('a leader change during a generation', () => {
  it('leaves the report to the next leader, which completes it', async () => {
    // A namespace of the test's own: the helper deletes only namespaces it named itself.
    const namespace = uniqueName('ph-handover');
    const first = await startTestService({ config: { kubernetes: { namespace } } });
    await waitFor(() => first.deps.controllers.isLeader, 30_000);
    const second = await startTestService({ config: { kubernetes: { namespace } } });
    try {
      // Requested through the replica that does not lead; the leader goes away at once.
      const id = await request({ type: 'security-assessment', format: 'pdf' }, second.adminToken, second);
      await first.close();
      const events = await followReportEvents(second, id, second.adminToken);
      expect(events.at(-1)?.event, JSON.stringify(events.at(-1))).toBe('completed');
      expect(second.deps.controllers.isLeader).toBe(true);
      expect((await downloadReport(second, id, second.adminToken)).status).toBe(200);
    } finally {
      await second.close();
      await tryKubectl(kubeconfig, ['delete', 'namespace', namespace, '--wait=false']);
    }
  }, 120_000);
});

function normalise(text: string, format: ReportFormat): string {
  const unescaped =
    format === 'html' ? text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&') : text;
  return (format === 'markdown' ? unescaped.replace(/\\([\\`[\]<>|])/g, '$1') : unescaped).replace(/\s+/g, ' ');
}

function checkPdf(file: Download): string {
  expect(file.contentType).toBe('application/pdf');
  const { text, pages } = pdfText(file.bytes);
  expect(pages).toBeGreaterThan(1);
  expect(text).toContain('Contents');
  return text;
}

function checkCsv(text: string, titles: string[]): void {
  const rows = parseCsv(text);
  expect(rows[0]).toEqual(['section', 'rule', 'severity', 'kind', 'namespace', 'name', 'title', 'why', 'fix']);
  for (const row of rows) expect(row).toHaveLength(9);
  const csvTitles = rows.slice(1).map((row) => row[6]);
  for (const title of titles) expect(csvTitles).toContain(title);
}
