/**
 * Which GitOps controller owns an object, read from the labels and annotations Argo CD and Flux put on what they
 * apply. Such an object is put back by its controller: a manual change is reverted at its next sync. Shared by the
 * service (the AI's approval card, `tool_request.managedBy`) and the web object page, so both say the same.
 */

/** The GitOps object that manages another one. */
export interface ManagedBy {
  controller: 'Argo CD' | 'Flux';
  kind: 'Application' | 'Kustomization' | 'HelmRelease';
  name: string;
  /** The managing object's namespace, when the marks name it. */
  namespace?: string;
}

/** The metadata fields the marks live in. */
export interface MarkedMetadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const argoTracking = 'argocd.argoproj.io/tracking-id';
const argoInstance = 'argocd.argoproj.io/instance';
const fluxMarks = [
  { kind: 'Kustomization', prefix: 'kustomize.toolkit.fluxcd.io' },
  { kind: 'HelmRelease', prefix: 'helm.toolkit.fluxcd.io' },
] as const;

/** `<namespace>_<name>` (an Application outside Argo CD's own namespace) or `<name>`. */
function argoApplication(application: string): ManagedBy | undefined {
  if (!application) return undefined;
  const split = application.indexOf('_');
  if (split > 0) return { controller: 'Argo CD', kind: 'Application', namespace: application.slice(0, split), name: application.slice(split + 1) };
  return { controller: 'Argo CD', kind: 'Application', name: application };
}

/**
 * Argo CD: the annotation `argocd.argoproj.io/tracking-id` (`<app>:<group>/<kind>:<namespace>/<name>`, annotation
 * tracking, with or without the `app.kubernetes.io/instance` label) or the label `argocd.argoproj.io/instance`.
 * Flux: `kustomize.toolkit.fluxcd.io/name` + `/namespace` or `helm.toolkit.fluxcd.io/name` + `/namespace`, unless
 * the object opts out with `<prefix>/reconcile: disabled`. Undefined for objects no controller manages.
 */
export function managedBy(metadata: MarkedMetadata | undefined): ManagedBy | undefined {
  const labels = metadata?.labels ?? {};
  const annotations = metadata?.annotations ?? {};
  const tracking = annotations[argoTracking] ?? '';
  const application = tracking ? (tracking.split(':')[0] ?? '') : (labels[argoInstance] ?? '');
  return application ? argoApplication(application) : fluxOwner(labels, annotations);
}

/** The Flux object named by the first complete pair of Flux labels (none when the object opts out of reconciling). */
function fluxOwner(labels: Record<string, string>, annotations: Record<string, string>): ManagedBy | undefined {
  const mark = fluxMarks.find(({ prefix }) => labels[`${prefix}/name`] && labels[`${prefix}/namespace`]);
  if (!mark) return undefined;
  const reconcile = `${mark.prefix}/reconcile`;
  if (annotations[reconcile] === 'disabled' || labels[reconcile] === 'disabled') return undefined;
  return { controller: 'Flux', kind: mark.kind, name: labels[`${mark.prefix}/name`] ?? '', namespace: labels[`${mark.prefix}/namespace`] };
}

/** `Argo CD Application shop (argocd)` / `Flux Kustomization apps (flux-system)`. */
export function managedByText(manager: ManagedBy): string {
  return `${manager.controller} ${manager.kind} ${manager.name}${manager.namespace ? ` (${manager.namespace})` : ''}`;
}
