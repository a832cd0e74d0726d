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
  en: { question: 'worker is not used any more: remove it', answer: 'worker runs 1 replica and nothing else refers to it; I will delete the deployment.' },
  ko: {
    question: 'worker는 더 이상 쓰지 않아요: 지워 줘',
    answer: 'worker는 레플리카 1개로 실행 중이고 참조하는 곳이 없습니다. 디플로이먼트를 삭제하겠습니다.',
  },
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
  const kubectl = (command: string) => ({ name: 'kubectl', arguments: { command: `${command} -n ${namespace}` } });
  // A read runs at once (its result folded to one line); the delete waits for y / n with its safety report.
  wire.script([{ toolCalls: [kubectl('get deployments')] }, { text: [scene.answer], toolCalls: [kubectl('delete deployment worker')] }, { text: ['OK.'] }]);
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
    await pane.waitFor('kubectl delete deployment worker').catch((error: unknown) => {
      throw new Error(`${String(error)}\nthe model was asked ${wire.chatRequests().length} times`);
    });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await snap(browser, pane, `tui-ai-${language}`);
    // Ends the turn before the next language scripts the model (the rejection makes the service ask the model again).
    pane.keys('n');
    await pane.waitFor('OK.');
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
