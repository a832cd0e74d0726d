import './theme.css';

/** The colour scheme the user picked: follow the system (prefers-color-scheme), or a fixed one. */
export type ThemeChoice = 'system' | 'light' | 'dark';

export const themeKey = 'pilothouse.theme';
const choices: readonly ThemeChoice[] = ['system', 'light', 'dark'];

export function storedTheme(): ThemeChoice {
  try {
    const value = window.localStorage.getItem(themeKey);
    return choices.includes(value as ThemeChoice) ? (value as ThemeChoice) : 'system';
  } catch {
    return 'system';
  }
}

/** The scheme a choice shows now. */
export function resolvedTheme(choice: ThemeChoice): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Sets `data-theme` on <html> (the stylesheet's dark variables hang off it) and the browser's color-scheme. */
export function applyTheme(choice: ThemeChoice): void {
  const scheme = resolvedTheme(choice);
  document.documentElement.dataset.theme = scheme;
  document.documentElement.style.colorScheme = scheme;
}

/** The next choice of the toggle: system → light → dark → system. */
export function nextTheme(choice: ThemeChoice): ThemeChoice {
  return choices[(choices.indexOf(choice) + 1) % choices.length] ?? 'system';
}

export function storeTheme(choice: ThemeChoice): void {
  try {
    window.localStorage.setItem(themeKey, choice);
  } catch {
    // storage unavailable: the choice lasts for this page
  }
  applyTheme(choice);
}
