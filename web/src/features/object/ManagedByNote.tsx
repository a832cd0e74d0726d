import type { ReactNode } from 'react';
import { managedBy, managedByText } from '@pilothouse/wire/managed-by';
import { useT } from '../../i18n';
import type { ResourceTarget } from '../../shared/resource-target';
import { useObject } from './use-object';

/** "Managed by Argo CD Application shop": an object Argo CD or Flux applies (its edits here are reverted at the next sync). */
export function ManagedByNote({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const manager = managedBy(useObject(target).data?.metadata);
  if (!manager) return null;
  return (
    <p className="notice compact pad managed-by" role="note">
      ↺ {t('objects.managedBy', { manager: managedByText(manager) })} <span className="muted small">{t('objects.managedByRevert')}</span>
    </p>
  );
}
