import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFlags, usage, UsageError } from './flags.js';

describe('flags', () => {
  it('--help points to the docs, and every docs page it names exists', () => {
    expect(parseFlags(['--help'], { HOME: '/home/u' }).command).toBe('help');
    const pages = usage.match(/docs\/[\w/-]+\.md/g) ?? [];
    expect(pages).toContain('docs/index.md');
    expect(pages.filter((page) => !existsSync(new URL(`../../${page}`, import.meta.url)))).toEqual([]);
  });
  it('reads -web as --web (not three short flags)', () => {
    expect(parseFlags(['-web'], { HOME: '/home/u' }).web).toBe(true);
    expect(parseFlags(['--web', '--port', '9090'], { HOME: '/home/u' }).port).toBe(9090);
  });
  it('defaults config and data under the user home', () => {
    const flags = parseFlags([], { HOME: '/home/u' });
    expect(flags.configPath).toBe('/home/u/.config/pilothouse/config.yaml');
    expect(flags.dataDir).toBe('/home/u/.local/share/pilothouse');
    expect(flags.command).toBe('serve');
  });
  it('rejects unknown flags and bad values with a usage error', () => {
    expect(() => parseFlags(['--bogus'], {})).toThrow(UsageError);
    expect(() => parseFlags(['--port', 'abc'], {})).toThrow(/--port/);
    expect(() => parseFlags(['--auth-mode', 'kerberos'], {})).toThrow(/--auth-mode: "kerberos" must be one of/);
    expect(() => parseFlags(['frobnicate'], {})).toThrow(/unknown command/);
  });
  it('parses the health subcommand', () => {
    const flags = parseFlags(['health', '--url', 'http://x:1'], {});
    expect(flags.command).toBe('health');
    expect(flags.url).toBe('http://x:1');
  });

  it('takes --cluster NAME on pilothouse tui (the cluster to start on; absent: the home cluster)', () => {
    expect(parseFlags(['tui', '--cluster', 'staging'], {}).tui.cluster).toBe('staging');
    expect(parseFlags(['tui'], {}).tui.cluster).toBeUndefined();
  });
});
