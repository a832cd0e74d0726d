import type { KeyboardEvent, ReactNode } from 'react';
import { useT } from '../../i18n';

export const releaseTabs = ['values', 'manifest', 'history', 'upgrade'] as const;
export type ReleaseTab = (typeof releaseTabs)[number];

/** The release page's tab strip (arrow keys move between tabs). */
export function ReleaseTabs({ tab, onTab }: { tab: ReleaseTab; onTab: (tab: ReleaseTab) => void }): ReactNode {
  const t = useT();
  const onKey = (event: KeyboardEvent): void => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = releaseTabs[(releaseTabs.indexOf(tab) + step + releaseTabs.length) % releaseTabs.length] ?? 'values';
    onTab(next);
    document.getElementById(`release-tab-${next}`)?.focus();
  };
  return (
    <div role="tablist" aria-label={t('helm.tabs')} className="tabs" onKeyDown={onKey}>
      {releaseTabs.map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          id={`release-tab-${name}`}
          aria-selected={tab === name}
          aria-controls={`release-panel-${name}`}
          tabIndex={tab === name ? 0 : -1}
          onClick={() => onTab(name)}
        >
          {t(`helm.tab.${name}`)}
        </button>
      ))}
    </div>
  );
}
