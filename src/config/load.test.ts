import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, parseConfig } from './load.js';
import { parseDuration } from './duration.js';

describe('config', () => {
  it('fills every default when the file is missing', () => {
    const config = loadConfig('/nonexistent/pilothouse.yaml', {});
    expect(config.authorization.jwt.token_duration).toBe(3_600_000);
    expect(config.authorization.jwt.refresh_window).toBe(900_000);
    expect(config.authorization.tool_approval.timeout).toBe(30_000);
    expect(config.limits.requests_per_minute).toBe(100);
    expect(config.limits.chat_requests_per_minute).toBe(10);
    expect(Object.isFrozen(config.authorization)).toBe(true);
  });

  it('resolves ${VAR} references from the environment', () => {
    const config = parseConfig(
      { authorization: { jwt: { signing_key: '${JWT_SECRET}' } }, ldap: { bind_password: '${LDAP_PASSWORD}' } },
      { JWT_SECRET: 's3cret', LDAP_PASSWORD: 'pw' },
    );
    expect(config.authorization.jwt.signing_key).toBe('s3cret');
    expect(config.ldap.bind_password).toBe('pw');
  });

  it('takes database.url from PILOTHOUSE_DATABASE_URL over the file, and refuses a non-postgres URL', () => {
    expect(parseConfig({}, {}).database.url).toBeUndefined();
    const url = 'postgres://pilothouse:pw@db:5432/pilothouse';
    expect(parseConfig({ database: { url: 'postgres://file@db/x', pool_size: 3 } }, { PILOTHOUSE_DATABASE_URL: url }).database).toMatchObject({
      url,
      pool_size: 3,
    });
    expect(() => parseConfig({ database: { url: 'mysql://db/x' } }, {})).toThrow(/database\.url: must be a postgres/);
  });

  it('names the bad key in a one-line error', () => {
    expect(() => parseConfig({ authorization: { jwt: { token_duration: 'soon' } } }, {})).toThrow(
      /authorization\.jwt\.token_duration: invalid duration "soon"/,
    );
    expect(() => parseConfig({ limits: { requests_per_minute: -1 } }, {})).toThrow(/limits\.requests_per_minute/);
    expect(() => parseConfig({ authorization: { tool_approval: { blocked_patterns: ['(['] } } }, {})).toThrow(
      /blocked_patterns\.0: invalid regular expression/,
    );
  });

  it('reports broken YAML as a ConfigError', () => {
    const directory = mkdtempSync(join(tmpdir(), 'ph-config-'));
    const path = join(directory, 'config.yaml');
    writeFileSync(path, 'server: [unclosed');
    expect(() => loadConfig(path, {})).toThrow(ConfigError);
  });

  it('reads an empty file, or one with only comments and blank lines, as all defaults', () => {
    const directory = mkdtempSync(join(tmpdir(), 'ph-config-'));
    for (const [name, text] of [
      ['empty', ''],
      ['blank', '  \n\n\t\n'],
      ['comments', '# pilothouse\n  # nothing yet\n\n'],
    ] as const) {
      const path = join(directory, `${name}.yaml`);
      writeFileSync(path, text);
      expect(loadConfig(path, {}).server.port, name).toBe(8080);
    }
  });

  it('parses durations', () => {
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('abc')).toBeUndefined();
  });
});
