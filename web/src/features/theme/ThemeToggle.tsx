import { useEffect, useState, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { applyTheme, nextTheme, storedTheme, storeTheme, type ThemeChoice } from './theme';

const icons: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' };

/** The header's theme button: system → light → dark; "system" follows prefers-color-scheme as it changes. */
export function ThemeToggle(): ReactNode {
  const t = useT();
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  useEffect(() => {
    applyTheme(choice);
    if (choice !== 'system' || !window.matchMedia) return;
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const follow = (): void => applyTheme('system');
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [choice]);
  const label = t('theme.toggle', { theme: t(`theme.${choice}`) });
  return (
    <button
      type="button"
      className="topbar-button theme-toggle"
      aria-label={label}
      title={label}
      onClick={() => {
        const next = nextTheme(choice);
        storeTheme(next);
        setChoice(next);
      }}
    >
      <span aria-hidden="true">{icons[choice]}</span>
    </button>
  );
}
