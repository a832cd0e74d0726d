// How to run: node --experimental-strip-types bench/safety.bench.ts [seconds]   (not part of the test run)
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
type CorpusModule = typeof import('../test/fixtures/safety/corpus.js');
type SchemaModule = typeof import('../src/config/schema.js');

const analyzerPath = '../src/tools/safety/analyzer.js';
const corpusPath = '../test/fixtures/safety/corpus.js';
const schemaPath = '../src/config/schema.js';
const { SafetyAnalyzer, safetyOptionsFromConfig } = (await import(analyzerPath)) as AnalyzerModule;
const { safetyCorpus } = (await import(corpusPath)) as CorpusModule;
const { configSchema } = (await import(schemaPath)) as SchemaModule;

const analyzer = new SafetyAnalyzer(safetyOptionsFromConfig(configSchema.parse({}).authorization.tool_approval));
const seconds = Number(process.argv[2] ?? 3);

async function runCorpus(): Promise<void> {
  for (const entry of safetyCorpus) await analyzer.analyze(entry.tool, entry.command);
}

await runCorpus(); // warm-up: loads the parser and JIT-compiles the walk
const started = performance.now();
let commands = 0;
while (performance.now() - started < seconds * 1000) {
  await runCorpus();
  commands += safetyCorpus.length;
}
const elapsedSeconds = (performance.now() - started) / 1000;
console.log(
  `safety analysis: ${Math.round(commands / elapsedSeconds)} commands/second ` +
    `(${commands} commands, corpus of ${safetyCorpus.length}, ${elapsedSeconds.toFixed(1)} s)`,
);
