import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../errors.js';
import type { RestClient } from '../kube/rest-client.js';

/** Label naming the Report a file chunk belongs to. */
export const reportFileLabel = 'pilothouse.dev/report';
/** Secret type of report file chunks. */
export const reportFileSecretType = 'pilothouse.dev/report-file';
/** Bytes per chunk: base64 of 512 KiB stays well under the 1 MiB object limit of etcd. */
const chunkBytes = 512 * 1024;

/** The Report object that owns a file (its chunks are garbage-collected with it). */
export interface FileOwner {
  name: string;
  uid?: string;
}

interface ChunkSecret {
  metadata: { name: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
}

/**
 * Report files: written to `<directory>/<id>.<extension>` on the replica that generated them and
 * copied into Secrets of the Pilothouse namespace (chunks of 512 KiB, owned by the Report), so a
 * download works from every replica (docs/adr/0022): a replica without the local file reads the
 * chunks and checks the digest.
 */
export class ReportFiles {
  constructor(
    private readonly rest: RestClient,
    private readonly namespace: string,
    readonly directory: string,
  ) {}

  private localPath(id: string, extension: string): string {
    return join(this.directory, `${id}.${extension}`);
  }

  private secretsPath(): string {
    return `/api/v1/namespaces/${this.namespace}/secrets`;
  }

  /** Writes the local file and the shared chunks (replacing chunks of an earlier attempt). */
  async save(owner: FileOwner, extension: string, bytes: Buffer): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    await writeFile(this.localPath(owner.name, extension), bytes, { mode: 0o600 });
    await this.deleteChunks(owner.name);
    const total = Math.max(1, Math.ceil(bytes.length / chunkBytes));
    const digest = createHash('sha256').update(bytes).digest('hex');
    for (let index = 0; index < total; index += 1) {
      const part = bytes.subarray(index * chunkBytes, (index + 1) * chunkBytes);
      await this.rest.json('POST', this.secretsPath(), { body: this.chunk(owner, { index, total, digest }, part), target: `secrets/${owner.name}` });
    }
  }

  private chunk(owner: FileOwner, position: { index: number; total: number; digest: string }, part: Buffer): Record<string, unknown> {
    const ownerReferences = owner.uid
      ? [{ apiVersion: 'pilothouse.dev/v1alpha1', kind: 'Report', name: owner.name, uid: owner.uid, blockOwnerDeletion: false }]
      : undefined;
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      type: reportFileSecretType,
      metadata: {
        name: `report-file-${owner.name}-${position.index}`,
        namespace: this.namespace,
        labels: { [reportFileLabel]: owner.name, 'app.kubernetes.io/part-of': 'pilothouse' },
        annotations: { 'pilothouse.dev/chunk': `${position.index}/${position.total}`, 'pilothouse.dev/sha256': position.digest },
        ownerReferences,
      },
      data: { bytes: part.toString('base64') },
    };
  }

  /**
   * The file's bytes: the local copy, else the shared chunks. Nothing is cached on a replica that
   * did not generate the file: only the leader deletes files, so a copy there would outlive the Report.
   */
  async read(id: string, extension: string): Promise<Buffer> {
    try {
      return await readFile(this.localPath(id, extension));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return this.readChunks(id);
  }

  private async readChunks(id: string): Promise<Buffer> {
    const list = await this.rest.json<{ items: ChunkSecret[] }>('GET', this.secretsPath(), { query: { labelSelector: `${reportFileLabel}=${id}` } });
    const chunks = list.items
      .map((item) => ({ position: (item.metadata.annotations?.['pilothouse.dev/chunk'] ?? '').split('/').map(Number), item }))
      .sort((left, right) => (left.position[0] ?? 0) - (right.position[0] ?? 0));
    const total = chunks[0]?.position[1];
    if (total === undefined || chunks.length !== total) throw new AppError('NOT_FOUND', `the file of report ${id} is not stored`, { id });
    const bytes = Buffer.concat(chunks.map(({ item }) => Buffer.from(item.data?.bytes ?? '', 'base64')));
    const digest = chunks[0]?.item.metadata.annotations?.['pilothouse.dev/sha256'];
    if (createHash('sha256').update(bytes).digest('hex') !== digest)
      throw new AppError('UNAVAILABLE', `the file of report ${id} is incomplete; try again`, { id });
    return bytes;
  }

  /** Deletes the local copies (any of `extensions`) and the shared chunks of a report. */
  async remove(id: string, extensions: readonly string[]): Promise<void> {
    await Promise.all(extensions.map((extension) => rm(this.localPath(id, extension), { force: true })));
    await this.deleteChunks(id);
  }

  /**
   * Deletes local report files (`<id>.<one of extensions>`) of reports not in `existing` (deleted while
   * another replica led); other files of the directory are left alone. Returns how many went.
   */
  async sweep(existing: ReadonlySet<string>, extensions: readonly string[]): Promise<number> {
    const names = await readdir(this.directory).catch(() => [] as string[]);
    const orphans = names.filter((name) => {
      const dot = name.lastIndexOf('.');
      return dot > 0 && extensions.includes(name.slice(dot + 1)) && !existing.has(name.slice(0, dot));
    });
    await Promise.all(orphans.map((name) => rm(join(this.directory, name), { force: true })));
    return orphans.length;
  }

  private async deleteChunks(id: string): Promise<void> {
    await this.rest.json('DELETE', this.secretsPath(), { query: { labelSelector: `${reportFileLabel}=${id}` } });
  }
}
