import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKubeconfig, useNamespace, waitFor } from '../../helpers/cluster.js';
import { applyYaml, runKubectl } from '../../helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../../helpers/llm-wire/index.js';
import { samplesUntil, startPrometheus, type RunningPrometheus, type TestSeries } from '../../helpers/prometheus.js';
import { startTestService, testAdminPassword, type TestService } from '../../helpers/service.js';
import { chromiumPath, launchArgs, missingForWebTests, signInAt } from '../../helpers/browser.js';

// Issue 36 in Chromium against a real Prometheus: the Usage tab of a pod, a deployment, a node and a PVC draws the
// history with a range picker; the AI pilot's promql call is drawn as a chart in the chat.
const missing = missingForWebTests();
if (missing.length && process.env.CI) throw new Error(`web UI test cannot run: ${missing.join('; ')}`);
if (missing.length) console.warn(`skipping the web history test: ${missing.join('; ')}`);

describe.skipIf(missing.length > 0)('web: usage history and PromQL charts', () => {
  const namespace = useNamespace('web-history');
  const now = Math.floor(Date.now() / 1000);
  let prometheus: RunningPrometheus;
  let service: TestService;
  let wire: LlmWireServer;
  let browser: Browser;
  let node: string;
  const pageErrors: string[] = [];
  const admin = { username: 'admin', password: testAdminPassword };
  const signIn = (path: string): Promise<Page> => signInAt(browser, `${service.url}${path}`, admin, pageErrors);

  /** A counter rising by `perSecond` (sampled every 30 s over the last two days) and a flat gauge. */
  const counter = (perSecond: number): [number, number][] => samplesUntil(now, 172_800, 30, (index) => index * 30 * perSecond);
  const gauge = (value: number): [number, number][] => samplesUntil(now, 172_800, 30, () => value);
  const podSeries = (pod: string, cpu: number, memory: number): TestSeries[] => {
    const labels = { namespace: namespace.name, pod, container: 'main', node };
    return [
      { name: 'container_cpu_usage_seconds_total', labels, samples: counter(cpu) },
      { name: 'container_memory_working_set_bytes', labels, samples: gauge(memory) },
      { name: 'kube_pod_container_status_restarts_total', labels: { namespace: namespace.name, pod, container: 'main' }, samples: gauge(2) },
      { name: 'kube_pod_info', labels: { namespace: namespace.name, pod, node }, samples: gauge(1) },
    ];
  };

  beforeAll(async () => {
    node = (await runKubectl(clusterKubeconfig(), ['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}'])).trim();
    prometheus = await startPrometheus({
      series: [
        ...podSeries('api-0', 0.5, 64 * 1024 * 1024),
        ...podSeries('web-5d8f-aaaaa', 0.25, 32 * 1024 * 1024),
        ...podSeries('web-5d8f-bbbbb', 0.25, 32 * 1024 * 1024),
        { name: 'kubelet_volume_stats_used_bytes', labels: { namespace: namespace.name, persistentvolumeclaim: 'data' }, samples: gauge(256 * 1024 * 1024) },
        {
          name: 'kubelet_volume_stats_capacity_bytes',
          labels: { namespace: namespace.name, persistentvolumeclaim: 'data' },
          samples: gauge(1024 * 1024 * 1024),
        },
      ],
    });
    wire = await startLlmWireServer();
    const llm = { provider: 'openai', model: 'wire-model', base_url: `${wire.url}/v1`, api_key: 'sk-web-history', max_retries: 0 };
    service = await startTestService({ web: true, config: { llm: llm as never, prometheus: { url: prometheus.url } } as never });
    await applyYaml(
      clusterKubeconfig(),
      `apiVersion: v1
kind: Pod
metadata: {name: api-0}
spec:
  containers: [{name: main, image: nginx}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: main, image: nginx}]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}`,
      namespace.name,
    );
    browser = await chromium.launch({ executablePath: chromiumPath, args: launchArgs, headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await wire?.close();
    await prometheus?.stop();
  });

  /** Opens the Usage tab of an object page and waits for the named charts, each with its last value. */
  async function usageOf(path: string, captions: RegExp[]): Promise<Page> {
    const page = await signIn(path);
    await page.getByRole('tab', { name: 'Usage' }).click();
    await page.getByTestId('history-source').getByText("From the cluster's Prometheus.").waitFor();
    for (const caption of captions) await page.locator('figure.history-chart figcaption').filter({ hasText: caption }).waitFor();
    // uPlot drew each chart (series without data too: they read "—").
    const figures = await page.locator('figure.history-chart').count();
    expect(figures).toBeGreaterThanOrEqual(captions.length);
    expect(await page.locator('figure.history-chart canvas').count()).toBe(figures);
    return page;
  }

  it("draws a pod's CPU, memory and restarts from Prometheus, and the range picker asks for the range chosen", { timeout: 120_000 }, async () => {
    const page = await usageOf(`/resources/pods/${namespace.name}/api-0`, [/^CPU: 0\.500 cores$/, /^Memory: 64\.0 MiB$/, /^Restarts: 2$/]);
    const asked = page.waitForRequest((request) => request.url().includes('/api/metrics/history') && request.url().includes('range=24h'));
    await page.getByTestId('history-range').selectOption('24h');
    const answered = await (await asked).response();
    expect(answered?.status()).toBe(200);
    const body = (await answered?.json()) as { range: string; series: { name: string; points: [number, number][] }[] };
    // A day of history (the series go back two days): the chart's first point is about a day ago.
    const first = body.series.find((series) => series.name === 'memory')?.points[0]?.[0] ?? 0;
    expect(now - first).toBeGreaterThan(23 * 3600);
    await page
      .locator('figure.history-chart figcaption')
      .filter({ hasText: /^Memory: 64\.0 MiB$/ })
      .waitFor();
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });

  it("draws a deployment's history summed over its pods, a node's and a PVC's", { timeout: 180_000 }, async () => {
    for (const [path, captions] of [
      [`/resources/deployments/${namespace.name}/web`, [/^CPU: 0\.500 cores$/, /^Memory: 64\.0 MiB$/]],
      [`/resources/nodes/_/${node}`, [/^CPU: /, /^Memory: /, /^Pods: 3$/]],
      [`/resources/persistentvolumeclaims/${namespace.name}/data`, [/^Used: 256\.0 MiB$/, /^Capacity: 1\.0 GiB$/]],
    ] as const) {
      const page = await usageOf(path, [...captions]);
      await page.context().close();
    }
    expect(pageErrors).toEqual([]);
  });

  it("draws the pilot's promql call as a chart in the chat", { timeout: 120_000 }, async () => {
    const query = `sum by (pod) (container_memory_working_set_bytes{namespace="${namespace.name}"})`;
    wire.script([{ toolCalls: [{ name: 'promql', arguments: { query, range: '1h' }, id: 'call_promql' }] }, { text: ['Memory is flat for an hour.'] }]);
    const page = await signIn(`/resources/pods/${namespace.name}/api-0`);
    const panel = page.locator('#chat-panel');
    if (!(await panel.isVisible())) await page.getByRole('button', { name: 'AI pilot' }).click();
    const input = page.getByLabel('Message to the AI pilot');
    await input.fill('since when is memory this high?');
    await input.press('Enter');
    await page.getByRole('log').getByText('Memory is flat for an hour.').waitFor();
    const chart = page.getByTestId('promql-chart');
    await chart.getByRole('img', { name: `Chart of ${query}` }).waitFor();
    await waitFor(async () => (await chart.locator('canvas').count()) > 0);
    // One line per pod of the answer, named in the legend.
    for (const pod of ['api-0', 'web-5d8f-aaaaa', 'web-5d8f-bbbbb']) await chart.locator('.u-legend').getByText(new RegExp(pod)).first().waitFor();
    expect(await chart.getByRole('alert').count()).toBe(0);
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
