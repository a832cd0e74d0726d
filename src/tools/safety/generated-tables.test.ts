import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The kubectl grammar tables are generated (make kubectl-flags) and committed as generated: their
// first line stamps the version they came from and the sha256 of the rest. `make kubectl-flags-check`
// regenerates and diffs (it needs the cluster); this test keeps the cheap half in every run.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/** The version of a module that a go.mod requires (`k8s.io/kubectl v0.36.3`). */
function required(goMod: string, module: string): string {
  const version = new RegExp(`^\\s*${module.replaceAll('.', '\\.')}\\s+(v\\S+)`, 'm').exec(read(goMod))?.[1];
  if (!version) throw new Error(`${goMod} requires no ${module}`);
  return version;
}

/** The stamp of a generated file, checked against its content. */
function stampOf(path: string): { source: string; hashMatches: boolean } {
  const [first = '', ...rest] = read(path).split('\n');
  const stamp = /^\/\/ @generated (.+) sha256:([0-9a-f]{64})$/.exec(first);
  if (!stamp) throw new Error(`${path} has no @generated stamp on its first line: run make kubectl-flags`);
  const hash = createHash('sha256').update(rest.join('\n')).digest('hex');
  return { source: stamp[1] ?? '', hashMatches: hash === stamp[2] };
}

describe('generated kubectl tables', () => {
  const kubectl = required('test/cluster/tools/kubectl/go.mod', 'k8s.io/kubectl').replace(/^v0\./, 'v1.');
  const kubernetes = required('test/cluster/go.mod', 'k8s.io/kubernetes');
  const tables = [
    { path: 'src/tools/safety/kubectl-flag-table.ts', source: `kubectl ${kubectl}` },
    { path: 'src/tools/safety/kube-resource-names.ts', source: `kubernetes ${kubernetes}` },
  ];

  it.each(tables)('$path was generated from the pinned $source and not edited since', ({ path, source }) => {
    const stamp = stampOf(path);
    expect(stamp.source, `${path} is stale: run make kubectl-flags`).toBe(source);
    expect(stamp.hashMatches, `${path} was edited by hand or reformatted: run make kubectl-flags`).toBe(true);
  });

  it('keeps every generated file out of Prettier', () => {
    const ignored = read('.prettierignore').split('\n');
    for (const path of [...tables.map((table) => table.path), 'packages/wire/types.ts', 'docs/report.schema.json']) expect(ignored).toContain(path);
  });
});
