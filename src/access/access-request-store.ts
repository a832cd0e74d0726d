import { randomBytes } from 'node:crypto';
import { CustomClient } from '../kube/custom-client.js';
import { accessRequestKind, accessRequestSchema, type AccessRequest } from '../crds/access-request.js';
import type { RestClient } from '../kube/rest-client.js';
import type { Condition } from '../crds/common.js';
import type { AccessSpec } from './grant-rules.js';

/** Status fields to merge; null clears a field; `conditions` replaces the whole list. */
export type StatusPatch = Record<string, string | null | Condition[]>;

/**
 * AccessRequest objects in the Pilothouse namespace (service identity). Status writes carry the
 * object's resourceVersion, so a decision never overwrites one it did not see (409 instead).
 */
export class AccessRequestStore {
  readonly client: CustomClient<AccessRequest>;

  constructor(
    private readonly rest: RestClient,
    namespace: string,
  ) {
    this.client = new CustomClient(rest, accessRequestKind, namespace, accessRequestSchema as never);
  }

  get(name: string): Promise<AccessRequest | undefined> {
    return this.client.get(name);
  }

  async list(): Promise<AccessRequest[]> {
    return (await this.client.list()).items;
  }

  /** Creates a request with a generated name `ar-<hex>`. */
  create(spec: AccessSpec): Promise<AccessRequest> {
    return this.client.create(`ar-${randomBytes(5).toString('hex')}`, spec);
  }

  delete(name: string): Promise<boolean> {
    return this.client.delete(name);
  }

  /** Merge-patches the status of exactly the version read; null clears a field. */
  async patchStatus(object: AccessRequest, status: StatusPatch): Promise<AccessRequest> {
    const name = object.metadata.name;
    const patched = await this.rest.json<unknown>('PATCH', `${this.client.collectionPath()}/${encodeURIComponent(name)}/status`, {
      body: { metadata: { resourceVersion: object.metadata.resourceVersion }, status },
      contentType: 'application/merge-patch+json',
      target: `accessrequests/${name}`,
    });
    return accessRequestSchema.parse(patched) as AccessRequest;
  }
}
