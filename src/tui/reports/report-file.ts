import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The file extension of each report format; anything else the server might name is saved as `.bin`. */
const extensions: Record<string, string> = { pdf: 'pdf', html: 'html', markdown: 'md', json: 'json', csv: 'csv' };

/** What the saved name is made of: the report as the list shows it (all of it from the server, so all of it cleaned). */
export interface ReportNameParts {
  type: string;
  format: string;
  /** '' for the whole cluster. */
  namespace: string;
  createdAt: string | null;
}

/** A name part reduced to letters, digits, `.`, `_` and `-`, never starting with a dot or a dash. */
function safePart(text: string, fallback: string): string {
  const cleaned = text
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, 63);
  return cleaned || fallback;
}

/** `yyyymmdd-hhmm` of the report's creation (UTC), or `undated`. */
function stampOf(createdAt: string | null): string {
  const when = new Date(createdAt ?? '');
  return Number.isNaN(when.getTime()) ? 'undated' : when.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
}

/**
 * The name the terminal UI saves a report under, chosen here and never taken from the server's
 * Content-Disposition: `<type>-<namespace|cluster>-<yyyymmdd-hhmm>.<extension of the format>`.
 */
export function reportFileName(report: ReportNameParts): string {
  const extension = Object.hasOwn(extensions, report.format) ? extensions[report.format] : 'bin';
  return `${safePart(report.type, 'report')}-${safePart(report.namespace, 'cluster')}-${stampOf(report.createdAt)}.${extension}`;
}

/** Flags of a new file: created here or not at all (an existing file or symlink is never opened, let alone followed). */
const createOnly = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** `name` with `-<n>` before its extension (`a.pdf` → `a-2.pdf`). */
function withSuffix(name: string, attempt: number): string {
  if (attempt === 1) return name;
  const dot = name.lastIndexOf('.');
  return `${name.slice(0, dot)}-${attempt}${name.slice(dot)}`;
}

/**
 * Writes `bytes` as a new file named `name` in `directory` (absolute path returned). The file is created
 * with O_EXCL|O_NOFOLLOW: a file or symlink already there is left alone and the next free `-2`, `-3`…
 * name is taken, so a planted link never redirects the write.
 */
export async function writeNewFile(directory: string, name: string, bytes: Uint8Array): Promise<string> {
  for (let attempt = 1; attempt <= 100; attempt += 1) {
    const path = resolve(join(directory, withSuffix(name, attempt)));
    const handle = await open(path, createOnly, 0o644).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST' || error.code === 'ELOOP') return undefined;
      throw error;
    });
    if (!handle) continue;
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    return path;
  }
  throw new Error(`no free file name for ${name} in ${directory}`);
}
