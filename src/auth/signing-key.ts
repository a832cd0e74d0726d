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

/**
 * The HS256 key: `authorization.jwt.signing_key` when set (at least 32 characters), otherwise a random
 * key created once in `<dataDir>/jwt-signing-key` (mode 0600), so tokens survive a restart.
 */
export function loadSigningKey(configured: string | undefined, dataDir: string, logger: Logger): Uint8Array {
  if (configured !== undefined && configured !== '') {
    if (configured.length < minimumKeyLength) {
      throw new SigningKeyError(`authorization.jwt.signing_key must be at least ${minimumKeyLength} characters`);
    }
    return new TextEncoder().encode(configured);
  }
  if (configured === '') logger.warn('authorization.jwt.signing_key is empty (unset environment variable?); using the key file');
  return readOrCreateKeyFile(join(dataDir, signingKeyFileName), logger);
}
