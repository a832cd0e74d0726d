import { createHash } from 'node:crypto';
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';

/** Encoded names longer than this become a hash (file names stop at 255 bytes). */
const longestName = 200;

/**
 * A user's folder name under the files root, injective and safe: `a-z`, `0-9`, `_` and `-` stay,
 * every other UTF-8 byte (capitals, dots, slashes, `%`) becomes `%XX` (capital hex). No `/`, no
 * `.`, hence no `..`; two names never meet, not even on a case-insensitive file system (literal
 * letters are lowercase, hex digits capital). Usernames are already canonical (ADR 0015), so no
 * folding happens here: `Alice` and `alice` are two accounts and get two folders. Over-long names
 * become `~` and their SHA-256 (`~` is never literal).
 */
export function userFolderName(username: string): string {
  if (username === '') throw new Error('a user folder needs a user name');
  let encoded = '';
  for (const byte of Buffer.from(username, 'utf8')) {
    const character = String.fromCharCode(byte);
    encoded += /^[a-z0-9_-]$/.test(character) ? character : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded.length <= longestName ? encoded : `~${createHash('sha256').update(username, 'utf8').digest('hex')}`;
}

/**
 * `<root>/<userFolderName(username)>`, created 0700 on first use: the only part of the files root
 * (config `tools.files.root`) that the user's read_file/write_file and kubectl `-f` see. A symlink
 * or file in its place is refused, never followed.
 */
export async function ensureUserFolder(root: string, username: string): Promise<string> {
  const folder = path.join(path.resolve(root), userFolderName(username));
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const info = await lstat(folder);
  if (!info.isDirectory()) throw new Error(`the files folder of ${username} is not a folder`);
  return folder;
}
