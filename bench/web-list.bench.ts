// How to run: `make bench` (or `BENCH_WEB_PODS=1000` for a quick look). Creates KWOK pods in one namespace, starts
// Pilothouse with the web UI (child process, needs `make build`), opens the pod list in headless Chromium and
// measures: first rows on screen after navigation, a new pod visible in the open list, and scrolling the whole
// virtualized list (frames over 1.5× the display's frame time count as dropped), from the browser's performance API.
// Tears everything down. Never part of the tests; no test asserts these times.
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { KubeClients, loadKubeConfig } from '../src/kube/clients.js';
import { inParallel, startPilothouse, stopPilothouse, type BenchService } from './helpers.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.BENCH_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const podCount = Number(process.env.BENCH_WEB_PODS ?? 10_000);
const namespace = `webbench-${process.pid}`;
const password = 'web-bench-password';
const rest = new KubeClients(loadKubeConfig({ kubeconfigPath: kubeconfig }), { kubeconfigPath: kubeconfig }).forIdentity().rest;

function podBody(name: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { bench: 'web' } },
    spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }] },
  };
}

interface Figures {
  firstRowsMs: number;
  /** The same navigation again (the service's cache and the browser's assets warm). */
  warmFirstRowsMs: number;
  allRowsMs: number;
  liveMs: number;
  frames: number;
  dropped: number;
  p95FrameMs: number;
}

/** The few browser globals the page-side functions use (the bench's own program has no DOM types). */
interface Scrollable {
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
}
interface Browser {
  document: { querySelector(selector: string): Scrollable | null };
  requestAnimationFrame(callback: (now: number) => void): number;
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void };
  localStorage: { setItem(key: string, value: string): void };
  firstRowAt?: number;
  liveAt?: number;
}

/** Scrolls the list from top to bottom in steps, one per animation frame, and times every frame. */
function scrollFrames(): Promise<{ frames: number; dropped: number; p95: number }> {
  const browser = globalThis as unknown as Browser;
  const requestAnimationFrame = browser.requestAnimationFrame.bind(globalThis);
  const scroller = browser.document.querySelector('.virtual-scroll') as Scrollable;
  const durations: number[] = [];
  return new Promise((resolve) => {
    let last = performance.now();
    const step = (now: number): void => {
      durations.push(now - last);
      last = now;
      scroller.scrollTop += Math.max(200, scroller.clientHeight / 2);
      if (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight && durations.length < 2000) requestAnimationFrame(step);
      else {
        const frame = [...durations].sort((left, right) => left - right)[Math.floor(durations.length / 2)] ?? 16.7;
        const sorted = [...durations].sort((left, right) => left - right);
        resolve({
          frames: durations.length,
          dropped: durations.filter((duration) => duration > frame * 1.5).length,
          p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
        });
      }
    };
    requestAnimationFrame((now) => {
      last = now;
      requestAnimationFrame(step);
    });
  });
}

async function measure(url: string): Promise<Figures> {
  const session = (await (
    await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    })
  ).json()) as { token: string };
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'], headless: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    // Signed in (the browser's session cookie, ADR 0050) and in the bench namespace before the first script runs; the
    // first row's time is taken by the page itself.
    await context.addCookies([{ name: 'pilothouse-session', value: session.token, url, httpOnly: true, sameSite: 'Strict' }]);
    await context.addInitScript(
      ([space]) => {
        const browser = globalThis as unknown as Browser;
        browser.localStorage.setItem('pilothouse.namespace', space);
        browser.localStorage.setItem('pilothouse.chatOpen', 'false');
        new browser.MutationObserver(() => {
          browser.firstRowAt ??= browser.document.querySelector('.virtual-table tbody tr') ? performance.now() : undefined;
          if (browser.liveAt === undefined && browser.document.querySelector('.virtual-table tbody tr[data-key$="/aaa-live"]')) browser.liveAt = Date.now();
        }).observe(browser.document, { childList: true, subtree: true });
      },
      [namespace] as const,
    );
    const page = await context.newPage();
    await page.goto(`${url}/resources/pods`);
    await page.getByText(`${podCount} of ${podCount}`).waitFor({ timeout: 120_000 });
    const firstRowsMs = await page.evaluate(() => (globalThis as unknown as Browser).firstRowAt ?? Number.NaN);
    const allRowsMs = await page.evaluate(() => performance.now());
    const created = Date.now();
    await rest.json('POST', `/api/v1/namespaces/${namespace}/pods`, { body: podBody('aaa-live') });
    await page.waitForFunction(() => (globalThis as unknown as Browser).liveAt !== undefined, undefined, { timeout: 30_000 });
    const liveMs = (await page.evaluate(() => (globalThis as unknown as Browser).liveAt ?? Number.NaN)) - created;
    const scrolled = await page.evaluate(scrollFrames);
    const again = await context.newPage();
    await again.goto(`${url}/resources/pods`);
    await again.getByText(`${podCount + 1} of ${podCount + 1}`).waitFor({ timeout: 120_000 });
    const warmFirstRowsMs = await again.evaluate(() => (globalThis as unknown as Browser).firstRowAt ?? Number.NaN);
    return { firstRowsMs, warmFirstRowsMs, allRowsMs, liveMs, frames: scrolled.frames, dropped: scrolled.dropped, p95FrameMs: scrolled.p95 };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  await rest.json('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
  let service: BenchService | undefined;
  try {
    await inParallel(podCount, 16, (index) =>
      rest.json('POST', `/api/v1/namespaces/${namespace}/pods`, { body: podBody(`pod-${index}`) }).then(() => undefined),
    );
    console.error(`created ${podCount} pods; measuring`);
    service = await startPilothouse(kubeconfig, ['--web', '--admin-password', password]);
    const figures = await measure(service.url);
    console.log('| pods | first rows on screen (cold / warm) | all rows listed | new pod visible in the open list | scroll frames | dropped | p95 frame |');
    console.log('|---|---|---|---|---|---|---|');
    console.log(
      `| ${podCount.toLocaleString('en')} | ${figures.firstRowsMs.toFixed(0)} / ${figures.warmFirstRowsMs.toFixed(0)} ms | ${figures.allRowsMs.toFixed(0)} ms | ${figures.liveMs.toFixed(0)} ms | ${figures.frames} | ${figures.dropped} | ${figures.p95FrameMs.toFixed(1)} ms |`,
    );
  } finally {
    if (service) await stopPilothouse(service);
    await rest.json('DELETE', `/api/v1/namespaces/${namespace}`).catch(() => undefined);
    await rest.close();
  }
}

await main();
