import { existsSync, readFileSync } from 'node:fs';
import * as yaml from 'js-yaml';
import { z } from 'zod';
import { configSchema, type Config } from './schema.js';

/** Raised for a config file that cannot be used; the message is one line naming the key. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Replaces `${VAR}` references in every string with the environment's value (empty when unset). */
export function resolveEnvReferences(value: unknown, environment: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => environment[name] ?? '');
  }
  if (Array.isArray(value)) return value.map((item) => resolveEnvReferences(item, environment));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveEnvReferences(item, environment)]));
  }
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

/** Formats the first zod issue as `key.path: message`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid configuration';
  const key = issue.path.map(String).join('.') || '(root)';
  return `${key}: ${issue.message}`;
}

/** True for a document with nothing in it: only whitespace and `#` comments (the YAML parser wants a document). */
export function isEmptyDocument(text: string): boolean {
  return text.split(/\r?\n/).every((line) => /^\s*(#.*)?$/.test(line));
}

/** Reads the raw YAML document (unresolved); an empty object when the file does not exist or holds nothing (defaults). */
export function readRawConfig(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  if (isEmptyDocument(text)) return {};
  let document: unknown;
  try {
    document = yaml.load(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError(`config ${path}: invalid YAML: ${reason}`);
  }
  if (document === undefined || document === null) return {};
  if (typeof document !== 'object' || Array.isArray(document)) {
    throw new ConfigError(`config ${path}: the document must be a mapping`);
  }
  return document as Record<string, unknown>;
}

/** The URL in the file of `database.url_file` (surrounding white space dropped). */
function readDatabaseUrl(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new ConfigError(`database.url_file: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The document's `database` mapping, or an empty one. */
function databaseOf(fields: Record<string, unknown>): Record<string, unknown> {
  return fields.database && typeof fields.database === 'object' ? (fields.database as Record<string, unknown>) : {};
}

/**
 * `database.url_file`: the URL read from that file (a mounted Secret, so the password is in neither the
 * config file nor the environment) into `database.url`; refused together with `database.url`.
 */
export function withDatabaseUrlFile(document: unknown): unknown {
  if (!document || typeof document !== 'object' || Array.isArray(document)) return document;
  const fields = document as Record<string, unknown>;
  const database = databaseOf(fields);
  const path = database.url_file;
  if (typeof path !== 'string' || path === '') return document;
  if (database.url !== undefined) throw new ConfigError('database.url_file: set database.url or database.url_file, not both');
  return { ...fields, database: { ...database, url: readDatabaseUrl(path) } };
}

/** `PILOTHOUSE_DATABASE_URL` sets `database.url` over the file's. */
function withEnvironmentOverrides(document: unknown, environment: NodeJS.ProcessEnv): unknown {
  const url = environment.PILOTHOUSE_DATABASE_URL;
  if (!url || !document || typeof document !== 'object' || Array.isArray(document)) return document;
  const fields = document as Record<string, unknown>;
  const database = fields.database && typeof fields.database === 'object' ? (fields.database as Record<string, unknown>) : {};
  return { ...fields, database: { ...database, url } };
}

/** Parses and validates a raw document into a frozen typed Config. */
export function parseConfig(raw: unknown, environment: NodeJS.ProcessEnv, source = 'config'): Config {
  const result = configSchema.safeParse(withEnvironmentOverrides(withDatabaseUrlFile(resolveEnvReferences(raw, environment)), environment));
  if (!result.success) throw new ConfigError(`${source}: ${describeIssue(result.error)}`);
  return deepFreeze(result.data);
}

/** Loads the config file at `path` (missing file = all defaults). */
export function loadConfig(path: string, environment: NodeJS.ProcessEnv = process.env): Config {
  return parseConfig(readRawConfig(path), environment, `config ${path}`);
}
