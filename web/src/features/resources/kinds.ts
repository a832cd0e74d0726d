import type { Translate, MessageKey } from '../../i18n';

/** The kinds in the navigation, in order. */
export const navKinds = ['pods', 'deployments', 'statefulsets', 'daemonsets', 'services', 'configmaps', 'secrets', 'nodes', 'namespaces', 'events'] as const;

/** The translated name of a kind in the nav, or the kind as typed. */
export function kindLabel(resource: string, t: Translate): string {
  return (navKinds as readonly string[]).includes(resource) ? t(`kind.${resource}` as MessageKey) : resource;
}
