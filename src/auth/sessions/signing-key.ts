import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';

export const signingKeyFileName = 'jwt-signing-key';
const minimumKeyLength = 32;

/** Raised at start when the configured signing key cannot be used. */
export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

function readOrCreateKeyFile(path: string, logger: Logger): Uint8Array {
  try {
    const stats = statSync(path);
    if ((stats.mode & 0o077) !== 0) chmodSync(path, 0o600);
    return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64url');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(64);
  writeFileSync(path, `${key.toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  logger.info({ path }, 'generated a JWT signing key');
  return key;
}

/** The key in `authorization.jwt.signing_key_file`: the file's text without surrounding line breaks. */
function readConfiguredKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8').replace(/^[\r\n]+|[\r\n]+$/g, '');
  } catch (error) {
    throw new SigningKeyError(`authorization.jwt.signing_key_file: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The two config keys of the signing key (at most one is set: the config schema refuses both). */
export interface SigningKeySource {
  signing_key?: string;
  signing_key_file?: string;
}

/**
 * The HS256 key: `authorization.jwt.signing_key` or the content of `signing_key_file` when set (at
 * least 32 characters), otherwise a random key created once in `<dataDir>/jwt-signing-key` (mode
 * 0600), so tokens survive a restart.
 */
export function loadSigningKey(source: SigningKeySource, dataDir: string, logger: Logger): Uint8Array {
  const fromFile = source.signing_key_file !== undefined;
  const configured = fromFile ? readConfiguredKeyFile(source.signing_key_file ?? '') : source.signing_key;
  const key = fromFile ? 'authorization.jwt.signing_key_file' : 'authorization.jwt.signing_key';
  if (configured !== undefined && configured !== '') {
    if (configured.length < minimumKeyLength) throw new SigningKeyError(`${key} must be at least ${minimumKeyLength} characters`);
    return new TextEncoder().encode(configured);
  }
  if (fromFile) throw new SigningKeyError(`${key}: ${source.signing_key_file ?? ''} is empty`);
  if (configured === '') logger.warn('authorization.jwt.signing_key is empty (unset environment variable?); using the key file');
  return readOrCreateKeyFile(join(dataDir, signingKeyFileName), logger);
}
