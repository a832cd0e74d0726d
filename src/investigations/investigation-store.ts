import { randomBytes } from 'node:crypto';
import { investigationLabels, type Investigation, type InvestigationSpec } from '../crds/investigation.js';
import { notFound } from '../errors.js';
import type { CustomClient } from '../kube/custom-client.js';
import type { Principal } from '../rbac/principal.js';
import { investigationNamespace } from './investigation-prompt.js';

/** A new Investigation's name: `inv-` and 10 hex digits. */
export function newInvestigationName(): string {
  return `inv-${randomBytes(5).toString('hex')}`;
}

/** Whether a caller may see investigations about a namespace (undefined: cluster-wide) of a cluster. */
export type InvestigationVisibility = (principal: Principal, cluster: string, namespace: string | undefined) => Promise<boolean>;

/** What the store uses. */
export interface InvestigationStoreDeps {
  investigations: CustomClient<Investigation>;
  homeCluster: string;
  mayView: InvestigationVisibility;
}

/**
 * Investigation objects as callers see them: an admin sees every one, others their own and those about a
 * namespace (or, without one, the cluster) the policy lets them view — the same decision as a list there.
 */
export class InvestigationStore {
  constructor(private readonly deps: InvestigationStoreDeps) {}

  get client(): CustomClient<Investigation> {
    return this.deps.investigations;
  }

  /** Creates an Investigation as Pilothouse (`labels` beside the trigger label). */
  async create(spec: InvestigationSpec, labels: Record<string, string>): Promise<Investigation> {
    return this.deps.investigations.create(newInvestigationName(), spec, labels);
  }

  /** The caller's view, newest first; `cluster` keeps one cluster's. */
  async list(principal: Principal, cluster?: string): Promise<Investigation[]> {
    const { items } = await this.deps.investigations.list();
    const visible: Investigation[] = [];
    for (const item of items) {
      if (cluster !== undefined && this.clusterOf(item) !== cluster) continue;
      if (await this.visible(principal, item)) visible.push(item);
    }
    return visible.sort((left, right) => (right.metadata.creationTimestamp ?? '').localeCompare(left.metadata.creationTimestamp ?? ''));
  }

  /** One investigation the caller may see; NOT_FOUND otherwise (others' are not revealed). */
  async get(principal: Principal, name: string): Promise<Investigation> {
    const investigation = await this.deps.investigations.get(name);
    if (!investigation || !(await this.visible(principal, investigation))) throw notFound(`investigation ${name} not found`, { name });
    return investigation;
  }

  /** The cluster an investigation is about. */
  clusterOf(investigation: Investigation): string {
    return investigation.spec.cluster ?? this.deps.homeCluster;
  }

  /** The newest investigation of an alert fingerprint. */
  async byFingerprint(fingerprint: string): Promise<Investigation | undefined> {
    const { items } = await this.deps.investigations.list(`${investigationLabels.fingerprint}=${fingerprintLabel(fingerprint)}`);
    return items
      .filter((item) => item.spec.alert?.fingerprint === fingerprint)
      .sort((left, right) => (right.metadata.creationTimestamp ?? '').localeCompare(left.metadata.creationTimestamp ?? ''))[0];
  }

  /** Whether the caller may view a namespace (undefined: the cluster) of a cluster; admins may. */
  async mayView(principal: Principal, cluster: string, namespace: string | undefined): Promise<boolean> {
    return principal.role === 'admin' || (await this.deps.mayView(principal, cluster, namespace));
  }

  private async visible(principal: Principal, investigation: Investigation): Promise<boolean> {
    if (investigation.spec.requester === principal.username) return true;
    return this.mayView(principal, this.clusterOf(investigation), investigationNamespace(investigation));
  }
}

/** A fingerprint as a label value (Alertmanager's are 16 hex digits; anything else is cut to the label alphabet). */
export function fingerprintLabel(fingerprint: string): string {
  return (
    fingerprint
      .replace(/[^A-Za-z0-9._-]/g, '')
      .slice(0, 63)
      .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '') || 'none'
  );
}
