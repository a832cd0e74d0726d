import { inView } from '../kube/cache/cache-manager.js';
import type { KubeIdentityClient } from '../kube/clients.js';
import type { ListAccess, ListAccessSets } from '../kube/cache/list-access.js';
import type { Principal } from '../rbac/principal.js';
import type { PolicyEngine } from '../rbac/policy-engine.js';
import type { Finding } from './finding.js';
import { watchedKind } from './watched-kinds.js';

/** Who asks, on one cluster: their principal (our policy) and their mapped cluster client (the cluster's RBAC). */
export interface FindingViewer {
  principal: Principal | undefined;
  client: KubeIdentityClient;
}

/** What the visibility of findings reads of a cluster scope: our policy and the cluster's list access sets. */
export interface FindingVisibilityDeps {
  policy: Pick<PolicyEngine, 'hiddenNamespaces'>;
  access: Pick<ListAccessSets, 'of'>;
}

type Shown = (finding: Finding) => boolean;
const nothing: Shown = () => false;

/** Who may see the findings of one kind: the namespaces the cluster lets them list it in, less those our policy hides. */
async function shownOfKind(deps: FindingVisibilityDeps, viewer: FindingViewer, kind: string, findings: Finding[]): Promise<Shown> {
  const type = watchedKind(kind);
  if (!type) return nothing;
  const hidden = await deps.policy.hiddenNamespaces(viewer.principal, { apiGroup: type.group, resource: type.plural }, 'list');
  if (hidden.all) return nothing;
  let access: ListAccess;
  if (viewer.client.identity === undefined) access = { all: true };
  else {
    const present = async (): Promise<string[]> => [...new Set(findings.map((finding) => finding.object.namespace ?? ''))];
    access = await deps.access.of(viewer.client, type, undefined, present).catch((): ListAccess => ({ all: false, namespaces: new Set() }));
  }
  if (!type.namespaced) return () => access.all;
  return (finding) => inView(access, finding.object.namespace) && !hidden.namespaces.has(finding.object.namespace ?? '');
}

/**
 * The findings the viewer may see: those about objects they may list, by the same access sets as the lists
 * (the cluster's RBAC for their identity, src/kube/cache/list-access.ts) and our policy's deny roles and hidden
 * namespaces (src/rbac), decided once per kind.
 */
export async function visibleFindings(deps: FindingVisibilityDeps, viewer: FindingViewer, findings: Finding[]): Promise<Finding[]> {
  const byKind = new Map<string, Finding[]>();
  for (const finding of findings) byKind.set(finding.object.kind, [...(byKind.get(finding.object.kind) ?? []), finding]);
  const shown = new Map<string, Shown>();
  await Promise.all([...byKind].map(async ([kind, ofKind]) => shown.set(kind, await shownOfKind(deps, viewer, kind, ofKind))));
  return findings.filter((finding) => (shown.get(finding.object.kind) ?? nothing)(finding));
}

/** A live viewer's test of one finding (a stream's change), decided once per kind and namespace until `clear`. */
export class VisibilityCache {
  private readonly shown = new Map<string, Promise<Shown>>();

  constructor(
    private readonly deps: FindingVisibilityDeps,
    private readonly viewer: FindingViewer,
  ) {}

  async sees(finding: Finding): Promise<boolean> {
    const key = `${finding.object.kind}|${finding.object.namespace ?? ''}`;
    let decided = this.shown.get(key);
    if (!decided) {
      decided = shownOfKind(this.deps, this.viewer, finding.object.kind, [finding]);
      this.shown.set(key, decided);
    }
    return (await decided)(finding);
  }

  /** Forgets every decision (RBAC changed). */
  clear(): void {
    this.shown.clear();
  }
}
