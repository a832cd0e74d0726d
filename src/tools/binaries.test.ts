import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBinary, findOnPath, packageRoot } from './binaries.js';

describe('findBinary', () => {
  it('finds the package root holding package.json', () => {
    const root = packageRoot();
    expect(root).toBeDefined();
    expect(existsSync(path.join(root ?? '', 'package.json'))).toBe(true);
  });

  it('prefers the configured override, resolved to an absolute path', () => {
    expect(findBinary('kubectl', './somewhere/kubectl')).toBe(path.resolve('somewhere/kubectl'));
    expect(findBinary('helm', '/opt/helm')).toBe('/opt/helm');
  });

  it('finds an executable kubectl (bundled under .tools/bin or on PATH)', () => {
    const found = findBinary('kubectl');
    const bundled = path.join(packageRoot() ?? '', '.tools', 'bin', 'kubectl');
    expect(found).toBe(existsSync(bundled) ? bundled : findOnPath('kubectl'));
  });

  it('looks a bare override up on PATH', () => {
    expect(findBinary('kubectl', 'sh')).toBe(findOnPath('sh'));
  });

  it('fails with a hint when nothing is found', () => {
    const savedPath = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(findOnPath('helm')).toBeUndefined();
      if (!existsSync(path.join(packageRoot() ?? '', '.tools', 'bin', 'helm'))) {
        expect(() => findBinary('helm')).toThrow(/tools\.helm/);
      }
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
