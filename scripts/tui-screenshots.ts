// How to run: `make screenshots-tui` (needs dist/ built, tmux, /usr/bin/chromium and a CJK font such as
// fonts-wqy-zenhei). Starts `pilothouse tui` (embedded mode) in a 120×40 tmux pane against the test cluster,
// with the scripted LLM server as the AI pilot's model, captures the pane with its colours (capture-pane -e),
// turns it into HTML and lets Chromium draw it: docs/screenshots/tui-*.png in English and Korean.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { applyYaml, runKubectl, tryKubectl } from '../test/helpers/kubectl.js';
import { startLlmWireServer, type LlmWireServer } from '../test/helpers/llm-wire/index.js';
import { TmuxPane } from '../test/helpers/tmux.js';
import { terminalPage } from './ansi-html.js';

const root = new URL('..', import.meta.url).pathname;
const kubeconfig = process.env.SCREENSHOT_KUBECONFIG ?? join(root, '.cluster', 'kubeconfig');
const output = join(root, 'docs', 'screenshots');
const namespace = 'storefront';

/** What the user asks and the scripted model answers, per language. */
const scenes = {
  en: { question: 'The sale starts soon: scale web to 5 replicas', answer: 'web runs 3 replicas now; I will scale it to 5.' },
  ko: { question: '곧 세일이 시작돼요: web을 레플리카 5개로 늘려 줘', answer: 'web은 지금 레플리카 3개입니다. 5개로 늘리겠습니다.' },
} as const;
type Language = keyof typeof scenes;

function deployment(name: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, labels: {app: ${name}}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
      - {name: ${name}, image: registry.example/${name}:1.4}`;
}

async function prepareNamespace(): Promise<void> {
  await tryKubectl(kubeconfig, ['delete', 'namespace', namespace, '--ignore-not-found', '--wait=true']);
  await runKubectl(kubeconfig, ['create', 'namespace', namespace]);
  for (const [name, replicas] of [
    ['web', 3],
    ['api', 2],
    ['worker', 1],
  ] as const)
    await applyYaml(kubeconfig, deployment(name, replicas), namespace);
  await runKubectl(kubeconfig, ['wait', '--for=condition=Available', '--timeout=120s', 'deployment', '--all', '-n', namespace]);
}

async function snap(browser: Browser, pane: TmuxPane, name: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.setContent(terminalPage(pane.colouredScreen(), name));
  await page.locator('#screen').screenshot({ path: join(output, `${name}.png`) });
  await page.close();
  process.stdout.write(`docs/screenshots/${name}.png\n`);
}

async function shoot(browser: Browser, wire: LlmWireServer, language: Language, config: string): Promise<void> {
  const scene = scenes[language];
  wire.reset();
  const command = `scale deployment web --replicas=5 -n ${namespace}`;
  wire.script([{ text: [scene.answer], toolCalls: [{ name: 'kubectl', arguments: { command } }] }, { text: ['OK.'] }]);
  const home = mkdtempSync(join(tmpdir(), 'ph-tui-shots-'));
  const argv = [process.execPath, join(root, 'bin', 'pilothouse'), 'tui', '--config', config, '--kubeconfig', kubeconfig, '--data-dir', home];
  const pane = TmuxPane.start([...argv, '-n', namespace, '--lang', language], { HOME: home });
  try {
    await pane.waitFor(/worker-\S+/, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await snap(browser, pane, `tui-pods-${language}`);
    pane.keys('a');
    await pane.waitFor('<i> ');
    pane.keys('i');
    pane.type(scene.question);
    pane.keys('Enter');
    await pane.waitFor('kubectl scale deployment web').catch((error: unknown) => {
      throw new Error(`${String(error)}\nthe model was asked ${wire.chatRequests().length} times`);
    });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await snap(browser, pane, `tui-ai-${language}`);
    pane.keys('n');
  } finally {
    pane.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  mkdirSync(output, { recursive: true });
  await prepareNamespace();
  const wire = await startLlmWireServer();
  const configDirectory = mkdtempSync(join(tmpdir(), 'ph-tui-shots-config-'));
  const config = join(configDirectory, 'config.yaml');
  writeFileSync(config, `llm:\n  provider: openai\n  model: wire-model\n  base_url: ${wire.url}/v1\n  api_key: sk-screenshots\n  max_retries: 0\n`);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], headless: true });
  try {
    for (const language of Object.keys(scenes) as Language[]) await shoot(browser, wire, language, config);
  } finally {
    await browser.close();
    await wire.close();
    rmSync(configDirectory, { recursive: true, force: true });
    await tryKubectl(kubeconfig, ['delete', 'namespace', namespace, '--wait=false']);
  }
}

await main();
