/** One object the user opened: the resource type as in the URL (`pods`), its name and namespace. */
export interface ResourceTarget {
  resource: string;
  name: string;
  namespace?: string;
}

/** `/api/k8s/pods/web-1` (+ suffix such as `/yaml`). */
export function objectPath(target: ResourceTarget, suffix = ''): string {
  return `/api/k8s/${encodeURIComponent(target.resource)}/${encodeURIComponent(target.name)}${suffix}`;
}

/** The path parameters and query of `/api/k8s/{resource}/{name}` (and its `/yaml`, `/describe`) for one object. */
export function objectParams(target: ResourceTarget): { path: { resource: string; name: string }; query: { namespace: string | undefined } } {
  return { path: { resource: target.resource, name: target.name }, query: { namespace: target.namespace } };
}

export function targetKey(target: ResourceTarget): string {
  return `${target.resource}/${target.namespace ?? ''}/${target.name}`;
}

export function sameTarget(left: ResourceTarget | null, right: ResourceTarget | null): boolean {
  return !!left && !!right && targetKey(left) === targetKey(right);
}
