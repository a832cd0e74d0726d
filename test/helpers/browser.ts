import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from './cluster.js';

/** The built web UI and the browser the web tests drive. */
export const webIndex = fileURLToPath(new URL('../../web/dist/index.html', import.meta.url));
export const chromiumPath = '/usr/bin/chromium';
export const launchArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the web tests cannot run here ([] when they can). */
export function missingForWebTests(): string[] {
  return [
    existsSync(webIndex) ? '' : 'web/dist is not built (cd web && npx vite build)',
    existsSync(chromiumPath) ? '' : `${chromiumPath} is missing (apt-get install chromium)`,
  ].filter(Boolean);
}

/** A fresh browser context signed in through the login form, on `path`; page errors are collected. */
export async function signInAt(browser: Browser, url: string, credentials: { username: string; password: string }, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  page.on('pageerror', (error) => errors.push(`${error.message}\n${error.stack ?? ''}`));
  await page.goto(url);
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
  return page;
}

const locales = fileURLToPath(new URL('../../locales', import.meta.url));
let loadingLines: string[] | undefined;
/** The web UI's "Loading…" lines in every language (locales/<language>/web.json). */
function loadingTexts(): string[] {
  loadingLines ??= readdirSync(locales).flatMap((language) => {
    const messages = JSON.parse(readFileSync(join(locales, language, 'web.json'), 'utf8')) as Record<string, string>;
    return ['common.loading', 'tab.loading', 'table.loading'].flatMap((key) => messages[key] ?? []);
  });
  return loadingLines;
}

/**
 * Waits until the page shows what it loaded: no spinner and no "Loading…" line left, its fonts loaded, and two
 * frames drawn since. (Live pages never go network-idle: their event streams stay open.)
 */
export async function pageSettled(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol (the page's Content-Security-Policy forbids waitForFunction's eval), as strings
  // (the service's TypeScript has no DOM types).
  const settled = `(() => {
    if (document.fonts.status !== 'loaded' || document.querySelector('.spinner')) return false;
    const loading = new Set(${JSON.stringify(loadingTexts())});
    return ![...document.querySelectorAll('p, span')].some((element) => loading.has((element.textContent ?? '').trim()));
  })()`;
  await waitFor(() => page.evaluate<boolean>(settled), 30_000, 50);
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeText: string | undefined;
const axeSource = (): string => (axeText ??= readFileSync(axePath, 'utf8'));

/** One accessibility problem axe-core found, as the test reports it. */
export interface AxeProblem {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe-core (WCAG 2 A/AA rules) on the page as it is; returns the serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeProblem[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not restrict (a script tag would be).
  if (!(await page.evaluate<boolean>("'axe' in window"))) await page.evaluate(axeSource());
  // Evaluated in the page (a string: the service's TypeScript has no DOM types).
  return page.evaluate<AxeProblem[]>(`(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')) }));
  })()`);
}
