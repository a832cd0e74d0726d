import { useState } from 'react';

/** A line that takes the keys while it is open (a search or filter line): the shell hands them to it, not to the view. */
export function useCapturedLine(shell: { setCapturing(capturing: boolean): void }): { open: boolean; start(): void; stop(): void } {
  const [open, setOpen] = useState(false);
  return {
    open,
    start: () => {
      setOpen(true);
      shell.setCapturing(true);
    },
    stop: () => {
      setOpen(false);
      shell.setCapturing(false);
    },
  };
}
