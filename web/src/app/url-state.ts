import { useCallback, useEffect } from 'react';
import { setSearchParams, useSearchParam } from '../shared/router';
import type { ResourceTarget } from '../shared/resource-target';
import { useStoredState } from './stored-state';

/**
 * The namespace the pages show, in the URL (`?namespace=`), so a shared link shows the same namespace: the URL's
 * when it names one, otherwise the user's last choice (kept in localStorage), which is then written to the URL.
 * Choosing another namespace closes the open drawer (its object belongs to the list of the old namespace).
 */
export function useUrlNamespace(): [string, (namespace: string) => void] {
  const inUrl = useSearchParam('namespace');
  const [stored, setStored] = useStoredState('pilothouse.namespace', '');
  const namespace = inUrl ?? stored;
  useEffect(() => {
    if (inUrl === null && namespace) setSearchParams({ namespace }, 'replace');
    if (inUrl !== null && inUrl !== stored) setStored(inUrl);
  }, [inUrl, namespace, stored, setStored]);
  const choose = useCallback(
    (next: string) => {
      setStored(next);
      setSearchParams({ namespace: next || null, open: null }, 'replace');
    },
    [setStored],
  );
  return [namespace, choose];
}

/** `shop/web-1` (or `node-a` for cluster-scoped kinds) as the object of a list's drawer. */
function parseOpen(open: string | null, resource: string): ResourceTarget | null {
  if (!open || !resource) return null;
  const slash = open.indexOf('/');
  if (slash < 0) return { resource, name: open };
  const namespace = open.slice(0, slash);
  const name = open.slice(slash + 1);
  return name ? { resource, namespace: namespace || undefined, name } : null;
}

/**
 * The object open in a list's drawer, in the URL (`?open=namespace/name`): a shared link opens the same drawer,
 * and opening one is a history entry, so Back closes the drawer and stays on the list.
 */
export function useUrlSelection(resource: string): [ResourceTarget | null, (target: ResourceTarget | null) => void] {
  const open = useSearchParam('open');
  const selected = parseOpen(open, resource);
  const select = useCallback(
    (target: ResourceTarget | null) => {
      const value = target ? (target.namespace ? `${target.namespace}/${target.name}` : target.name) : null;
      // A first drawer is an entry of its own (Back closes it); switching rows or closing it is not.
      setSearchParams({ open: value }, open === null && value !== null ? 'push' : 'replace');
    },
    [open],
  );
  return [selected, select];
}
