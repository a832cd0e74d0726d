import type { z } from 'zod';
import { AppError } from '../errors.js';
import { apiVersion, group, version, type CustomKind } from '../crds/common.js';
import type { RestClient } from './rest-client.js';
import { jsonLines } from './watch-stream.js';

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

type AnyObject = { metadata: { name: string; namespace?: string; resourceVersion?: string } };

/** Typed access to one of our custom kinds in one namespace. */
export class CustomClient<T extends AnyObject> {
  constructor(
    private readonly rest: RestClient,
    readonly kind: CustomKind,
    readonly namespace: string,
    private readonly schema: z.ZodType<T>,
  ) {}

  collectionPath(): string {
    return `/apis/${group}/${version}/namespaces/${this.namespace}/${this.kind.plural}`;
  }

  private objectPath(name: string): string {
    return `${this.collectionPath()}/${encodeURIComponent(name)}`;
  }

  /** The object, or undefined when it does not exist. */
  async get(name: string): Promise<T | undefined> {
    try {
      const object = await this.rest.json<unknown>('GET', this.objectPath(name), { target: `${this.kind.plural}/${name}` });
      return this.schema.parse(object);
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    }
  }

  async list(labelSelector?: string): Promise<{ items: T[]; resourceVersion: string }> {
    const list = await this.rest.json<{ items: unknown[]; metadata: { resourceVersion: string } }>('GET', this.collectionPath(), {
      query: { labelSelector },
    });
    const items = list.items.flatMap((item) => {
      const parsed = this.schema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
    return { items, resourceVersion: list.metadata.resourceVersion };
  }

  /** Creates the object with its labels and annotations in one call (never patched in afterwards). */
  async create(name: string, spec: unknown, labels: Record<string, string> = {}, annotations: Record<string, string> = {}): Promise<T> {
    const body = { apiVersion, kind: this.kind.kind, metadata: { name, namespace: this.namespace, labels, annotations }, spec };
    const object = await this.rest.json<unknown>('POST', this.collectionPath(), { body, target: `${this.kind.plural}/${name}` });
    return this.schema.parse(object);
  }

  /** JSON merge patch of the spec (or metadata). */
  async patch(name: string, patch: Record<string, unknown>): Promise<T> {
    const object = await this.rest.json<unknown>('PATCH', this.objectPath(name), {
      body: patch,
      contentType: 'application/merge-patch+json',
      target: `${this.kind.plural}/${name}`,
    });
    return this.schema.parse(object);
  }

  /** JSON merge patch of the status subresource. */
  async patchStatus(name: string, status: Record<string, unknown>): Promise<void> {
    await this.rest.json<unknown>('PATCH', `${this.objectPath(name)}/status`, {
      body: { status },
      contentType: 'application/merge-patch+json',
      target: `${this.kind.plural}/${name}`,
    });
  }

  /** JSON merge patch of the status subresource, only if the object is still at `resourceVersion` (else a CONFLICT AppError). */
  async patchStatusAt(name: string, resourceVersion: string, status: Record<string, unknown>): Promise<void> {
    await this.rest.json<unknown>('PATCH', `${this.objectPath(name)}/status`, {
      body: { metadata: { resourceVersion }, status },
      contentType: 'application/merge-patch+json',
      target: `${this.kind.plural}/${name}`,
    });
  }

  /** Deletes the object; false when it did not exist. */
  async delete(name: string): Promise<boolean> {
    try {
      await this.rest.json('DELETE', this.objectPath(name), { target: `${this.kind.plural}/${name}` });
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return false;
      throw error;
    }
  }

  /** Streams watch events from `resourceVersion` until the server closes the watch or `signal` aborts; `name` watches one object. */
  async *watch(resourceVersion: string, signal: AbortSignal, name?: string): AsyncGenerator<WatchEvent<T>> {
    const fieldSelector = name === undefined ? undefined : `metadata.name=${name}`;
    const response = await this.rest.raw('GET', this.collectionPath(), {
      query: { watch: 1, resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 300, fieldSelector },
      signal,
    });
    yield* jsonLines<WatchEvent<T>>(response);
  }
}
