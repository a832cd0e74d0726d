import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/load.js';
import { parseFlags, UsageError } from './flags.js';
import { authDisabled, isLoopback, listenHost } from './listen-address.js';

const config = (raw: unknown = {}): ReturnType<typeof parseConfig> => parseConfig(raw, {});
const flags = (...argv: string[]): ReturnType<typeof parseFlags> => parseFlags(argv, { HOME: '/home/u' });

describe('listen address', () => {
  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.1', 'example.com', '::ffff:10.0.0.1']) expect(isLoopback(host), host).toBe(false);
  });

  it('treats auth.mode none like --no-auth unless --auth-mode overrides it', () => {
    expect(authDisabled(flags('--no-auth'), config())).toBe(true);
    expect(authDisabled(flags(), config({ auth: { mode: 'none' } }))).toBe(true);
    expect(authDisabled(flags('--auth-mode', 'local'), config({ auth: { mode: 'none' } }))).toBe(false);
    expect(authDisabled(flags(), config())).toBe(false);
  });

  it('keeps --host and server.host when authentication is on', () => {
    expect(listenHost(flags('--host', '0.0.0.0'), config())).toBe('0.0.0.0');
    expect(listenHost(flags(), config({ server: { host: '0.0.0.0' } }))).toBe('0.0.0.0');
  });

  it('binds to loopback only without authentication, unless --host comes with --no-auth-allow-remote', () => {
    expect(listenHost(flags('--no-auth'), config({ server: { host: '0.0.0.0' } }))).toBe('127.0.0.1');
    expect(listenHost(flags(), config({ auth: { mode: 'none' }, server: { host: '0.0.0.0' } }))).toBe('127.0.0.1');
    expect(listenHost(flags('--no-auth', '--host', '::1'), config())).toBe('::1');
    expect(() => listenHost(flags('--no-auth', '--host', '0.0.0.0'), config())).toThrow(UsageError);
    expect(() => listenHost(flags('--host', '0.0.0.0'), config({ auth: { mode: 'none' } }))).toThrow(/--no-auth-allow-remote/);
    expect(listenHost(flags('--no-auth', '--host', '0.0.0.0', '--no-auth-allow-remote'), config())).toBe('0.0.0.0');
    expect(listenHost(flags('--no-auth', '--no-auth-allow-remote'), config({ server: { host: '0.0.0.0' } }))).toBe('127.0.0.1');
  });
});
