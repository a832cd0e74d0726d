import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/** A folder name for a session id: the id itself when it is a plain name, else a hash of it. */
export function sandboxFolderName(sessionId: string | undefined): string {
  if (sessionId === undefined || sessionId === '') return 'default';
  const plain = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/.test(sessionId);
  return plain ? sessionId : createHash('sha256').update(sessionId).digest('hex').slice(0, 32);
}

/** Creates (0700) and returns `<sandboxRoot>/<session>`. */
export async function ensureSessionSandbox(sandboxRoot: string, sessionId: string | undefined): Promise<string> {
  const directory = path.join(path.resolve(sandboxRoot), sandboxFolderName(sessionId));
  await mkdir(directory, { recursive: true, mode: 0o700 });
  return directory;
}
