import type { RequestAttributes } from '../../rbac/request-attributes.js';
import type { ToolClusterRefusal } from '../types.js';

/** The first refusals of one proxy (kubectl retries and lists are bounded by this cap). */
export class RefusalLog {
  private readonly entries: ToolClusterRefusal[] = [];

  constructor(private readonly limit = 20) {}

  add(attributes: RequestAttributes, reason: string): void {
    if (this.entries.length >= this.limit) return;
    const resource = attributes.isResourceRequest
      ? [attributes.apiGroup ? `${attributes.resource}.${attributes.apiGroup}` : attributes.resource, attributes.subresource].filter(Boolean).join('/')
      : attributes.path;
    this.entries.push({ verb: attributes.verb, resource, namespace: attributes.namespace, name: attributes.name, reason });
  }

  list(): readonly ToolClusterRefusal[] {
    return [...this.entries];
  }
}
