import { useRef, type KeyboardEvent, type ReactNode } from 'react';

interface TabListProps<T extends string> {
  /** The tab list's accessible name. */
  label: string;
  tabs: readonly T[];
  tab: T;
  onTab: (tab: T) => void;
  /** Each tab's visible text. */
  text: (tab: T) => string;
  /** The id of a tab's button, and of the panel it controls. */
  tabId: (tab: T) => string;
  panelId: (tab: T) => string;
}

/** A row of tabs (ARIA tabs pattern: the arrow keys move between them and focus the one chosen). */
export function TabList<T extends string>({ label, tabs, tab, onTab, text, tabId, panelId }: TabListProps<T>): ReactNode {
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const onKey = (event: KeyboardEvent): void => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length] ?? tab;
    onTab(next);
    refs.current.get(next)?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className="tabs" onKeyDown={onKey}>
      {tabs.map((name) => (
        <button
          key={name}
          ref={(element) => {
            if (element) refs.current.set(name, element);
          }}
          type="button"
          role="tab"
          id={tabId(name)}
          aria-selected={tab === name}
          aria-controls={panelId(name)}
          tabIndex={tab === name ? 0 : -1}
          onClick={() => onTab(name)}
        >
          {text(name)}
        </button>
      ))}
    </div>
  );
}
