/** Collects a stream's bytes up to a limit, remembering whether more arrived. */
export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  append(chunk: Buffer): void {
    const room = this.limit - this.size;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** The marker appended to output cut at `limit` bytes. */
export function truncationMarker(limit: number): string {
  return `\n[output truncated at ${limit} bytes]`;
}

/**
 * Joins stdout and stderr (stderr under a `[stderr]` heading) within `limit` bytes in total,
 * appending the truncation marker when anything was cut.
 */
export function joinOutput(stdout: CappedOutput, stderr: CappedOutput, limit: number): { text: string; truncated: boolean } {
  const error = stderr.toBuffer();
  const parts = [stdout.toBuffer()];
  if (error.length > 0) parts.push(Buffer.from(parts[0]?.length ? '\n[stderr]\n' : '[stderr]\n'), error);
  const joined = Buffer.concat(parts);
  const truncated = stdout.truncated || stderr.truncated || joined.length > limit;
  const text = joined.subarray(0, limit).toString('utf8');
  return { text: truncated ? text + truncationMarker(limit) : text, truncated };
}
