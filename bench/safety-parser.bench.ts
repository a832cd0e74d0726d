// How to run: node --experimental-strip-types bench/safety-parser.bench.ts [seconds]   (not part of the test run)
// Throughput of the kubectl grammar (kubectl tool lines/second) and the time of very long lines.
import { registerHooks } from 'node:module';
import { performance } from 'node:perf_hooks';

// Sources import siblings as `./x.js` (NodeNext style); map those to the `.ts` files when no `.js` exists.
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!specifier.startsWith('.') || !specifier.endsWith('.js')) throw error;
      return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    }
  },
});

type AnalyzerModule = typeof import('../src/tools/safety/analyzer.js');
type AttackModule = typeof import('../test/fixtures/safety/attack-corpus.js');
type CorpusModule = typeof import('../test/fixtures/safety/corpus.js');
type SchemaModule = typeof import('../src/config/schema.js');

const analyzerPath = '../src/tools/safety/analyzer.js';
const attackPath = '../test/fixtures/safety/attack-corpus.js';
const corpusPath = '../test/fixtures/safety/corpus.js';
const schemaPath = '../src/config/schema.js';
const { SafetyAnalyzer, safetyOptionsFromConfig } = (await import(analyzerPath)) as AnalyzerModule;
const { attackCorpus, attackFilesRoot } = (await import(attackPath)) as AttackModule;
const { safetyCorpus } = (await import(corpusPath)) as CorpusModule;
const { configSchema } = (await import(schemaPath)) as SchemaModule;

const analyzer = new SafetyAnalyzer(safetyOptionsFromConfig(configSchema.parse({}).authorization.tool_approval, attackFilesRoot));
const seconds = Number(process.argv[2] ?? 3);
const kubectlLines = [...safetyCorpus, ...attackCorpus].filter((entry) => entry.tool === 'kubectl').map((entry) => entry.command);

function timed(label: string, tool: string, command: string): void {
  const started = performance.now();
  const report = analyzer.analyzeSync(tool, command);
  console.log(`${label}: ${command.length} characters in ${(performance.now() - started).toFixed(1)} ms (${report.type}${report.blocked ? ', blocked' : ''})`);
}

for (const line of kubectlLines) analyzer.analyzeSync('kubectl', line); // warm-up
const started = performance.now();
let lines = 0;
while (performance.now() - started < seconds * 1000) {
  for (const line of kubectlLines) analyzer.analyzeSync('kubectl', line);
  lines += kubectlLines.length;
}
const elapsedSeconds = (performance.now() - started) / 1000;
console.log(`kubectl parser: ${Math.round(lines / elapsedSeconds)} lines/second (${kubectlLines.length} corpus lines, ${elapsedSeconds.toFixed(1)} s)`);

const names = Array.from({ length: 7000 }, (_, index) => `pod-${index}`).join(' ');
timed('kubectl, 7,000 names', 'kubectl', `delete pods ${names}`.slice(0, 60_000));
timed(
  'kubectl, 60 kinds x 900 names',
  'kubectl',
  `get ${Array.from({ length: 60 }, (_, index) => `k${index}`).join(',')} ${names.slice(0, 60_000 - 400)}`.slice(0, 60_000),
);
timed('kubectl, one 60,000-character value', 'kubectl', `get pods -l app=${'x'.repeat(60_000)}`);
timed('kubectl, 60,000-character short flag cluster', 'kubectl', `get pods -${'A'.repeat(60_000)}`);
timed('bash, 60,000-character quoted word', 'bash', `echo '${'x '.repeat(30_000)}'`);
timed('bash, 1,400 words', 'bash', `kubectl get pods ${names.split(' ').slice(0, 1400).join(' ')}`);
timed('bash, 60,000 characters of words (not parsed)', 'bash', `kubectl get pods ${names}`.slice(0, 60_000));
timed('bash, awk print x 10,000', 'bash', `awk '${'print '.repeat(10_000)}'`);
