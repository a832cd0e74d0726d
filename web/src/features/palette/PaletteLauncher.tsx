import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { Role } from '@pilothouse/wire/types';
import { useT } from '../../i18n';

// cmdk and the palette's lists load on the first ctrl-k / cmd-k.
const CommandPalette = lazy(() => import('./CommandPalette').then((module) => ({ default: module.CommandPalette })));

/** The header's "Search…" button and the global ctrl-k / cmd-k shortcut. */
export function PaletteLauncher({ role, namespace }: { role: Role; namespace: string }): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((value) => !value);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <button type="button" className="topbar-button palette-button" onClick={() => setOpen(true)} aria-keyshortcuts="Control+K Meta+K">
        {t('palette.open')} <kbd>Ctrl K</kbd>
      </button>
      {open && (
        <Suspense fallback={null}>
          <CommandPalette role={role} namespace={namespace} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
