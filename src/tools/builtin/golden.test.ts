import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createBashSandbox } from './bash-sandbox-setup.js';
import { createBuiltinTools } from './index.js';

const goldenPath = fileURLToPath(new URL('../../../test/golden/ai-tools.json', import.meta.url));

/**
 * The AI tool list is a contract with the model and with the UI: a change to a name, a schema or
 * a read-only/destructive declaration must be deliberate. Regenerate with UPDATE_GOLDEN=1.
 */
describe('AI tool list (golden file)', () => {
  it('matches test/golden/ai-tools.json', () => {
    const tools = createBuiltinTools({
      kubectlPath: 'kubectl',
      outputLimit: 65536,
      timeoutMs: 60_000,
      bash: { enabled: true, sandboxRoot: '/tmp/pilothouse-golden', sandbox: createBashSandbox({ kubectlPath: 'kubectl' }) },
      files: { root: '/tmp/pilothouse-golden' },
      promql: { run: async () => ({ resultType: 'vector', result: [] }) },
      problems: { read: async () => ({ items: [], total: 0, counts: {} }) },
    });
    const definitions = tools.map(({ definition }) => ({
      name: definition.name,
      type: definition.type,
      readOnly: definition.readOnly,
      destructive: definition.destructive,
      description: definition.description,
      inputSchema: definition.inputSchema,
    }));
    const text = `${JSON.stringify(definitions, null, 2)}\n`;
    if (process.env.UPDATE_GOLDEN) writeFileSync(goldenPath, text);
    expect(existsSync(goldenPath), 'golden file missing: run with UPDATE_GOLDEN=1').toBe(true);
    expect(text).toBe(readFileSync(goldenPath, 'utf8'));
    expect(definitions.map((definition) => definition.name)).toEqual(['kubectl', 'problems', 'bash', 'read_file', 'write_file', 'promql']);
  });
});
