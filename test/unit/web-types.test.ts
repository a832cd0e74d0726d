import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateWebTypes, wireTypesPath } from '../../scripts/web-types.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every TypeScript file below `folder` (node_modules and build output left out). */
function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (['node_modules', 'dist'].includes(name)) return [];
    if (statSync(path).isDirectory()) return typeScriptFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** What only the wire module declares: the generated document types, the error class, the SSE parser. */
const wireDeclarations = /^export (?:interface (?:paths|components|operations)\b|class (?:ApiError|SseParser)\b)/m;

describe('the wire module, packages/wire (@pilothouse/wire): types.ts generated once, wire-client.ts written once', () => {
  it('types.ts is what openapi-typescript makes of the current OpenAPI document (run `make web-types` when this fails)', { timeout: 60_000 }, () => {
    expect(readFileSync(wireTypesPath, 'utf8') === generateWebTypes(), `${wireTypesPath} is stale: regenerate it with \`make web-types\``).toBe(true);
  });

  it('is declared in packages/wire alone: no client tree and no script holds a copy of the types or the client code', () => {
    const copies = ['web/src', 'src', 'scripts', 'test']
      .flatMap((folder) => typeScriptFiles(join(root, folder)))
      .filter((path) => wireDeclarations.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path));
    expect(copies).toEqual([]);
    const packaged = typeScriptFiles(join(root, 'packages/wire')).filter((path) => wireDeclarations.test(readFileSync(path, 'utf8')));
    expect(packaged.map((path) => relative(root, path)).sort()).toEqual(['packages/wire/types.ts', 'packages/wire/wire-client.ts']);
  });

  it('is one dependency of both npm projects (root and web/), the local package', () => {
    const dependency = (file: string): unknown =>
      (JSON.parse(readFileSync(join(root, file), 'utf8')) as { dependencies: Record<string, string> }).dependencies['@pilothouse/wire'];
    expect(dependency('package.json')).toBe('file:packages/wire');
    expect(dependency('web/package.json')).toBe('file:../packages/wire');
  });

  it('loads in plain Node 24 the way the built terminal UI (dist/) imports it: through node_modules, types stripped', () => {
    const script =
      "const wire = await import('@pilothouse/wire/wire-client'); await import('@pilothouse/wire/types');" +
      "const calls = await import('@pilothouse/wire/calls'); const path = calls.pathOf('/api/k8s/{resource}/{name}', { resource: 'pods', name: 'a b' });" +
      "const error = new wire.ApiError(403, { error: 'no', code: 'FORBIDDEN', details: { reason: 'approval_required' } });" +
      'const events = []; const parser = new wire.SseParser((event) => events.push(event)); parser.feed(\'event: x\\ndata: {"a":1}\\n\\n\');' +
      'console.log(JSON.stringify({ line: error.line, approval: error.approvalRequired, events, path }));';
    const output = execFileSync(process.execPath, ['--input-type=module', '--eval', script], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ line: 'FORBIDDEN: no', approval: true, events: [{ event: 'x', data: '{"a":1}' }], path: '/api/k8s/pods/a%20b' });
    expect(existsSync(join(root, 'node_modules/@pilothouse/wire/package.json'))).toBe(true);
  });
});
