import { useCallback, useState } from 'react';
import { useSettings } from '../features/settings/settings-context';
import { useStoredState } from './stored-state';

/**
 * Whether the AI pilot panel is open: the user's choice, kept in their settings (`pilot_open`), so every browser
 * and every sign-in finds it as they left it; this browser's last state (localStorage) until the settings arrive.
 */
export function usePilotOpen(): [boolean, () => void, () => void] {
  const { settings, save } = useSettings();
  const [stored, setStored] = useStoredState('pilothouse.chatOpen', 'true');
  // A click here wins at once over the settings loaded before it (the save answers later).
  const [chosen, setChosen] = useState<boolean>();
  const open = chosen ?? settings?.pilot_open ?? stored === 'true';
  const toggle = useCallback(() => {
    const next = !open;
    setChosen(next);
    setStored(String(next));
    // Kept for this browser even when the service cannot store it now.
    save({ pilot_open: next }).catch(() => undefined);
  }, [open, save, setStored]);
  /** Opens it ("Ask the pilot"); nothing when it is open. */
  const show = useCallback(() => {
    if (!open) toggle();
  }, [open, toggle]);
  return [open, toggle, show];
}
