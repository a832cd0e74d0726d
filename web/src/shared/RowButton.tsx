import type { ReactNode } from 'react';

interface RowButtonProps {
  /** The visible text. */
  label: string;
  /** The accessible name (names the row, e.g. "Remove repo x"). */
  name: string;
  onClick: () => void;
  disabled?: boolean;
  danger?: boolean;
}

/** A small action button in a table row. */
export function RowButton({ label, name, onClick, disabled, danger }: RowButtonProps): ReactNode {
  return (
    <button type="button" className={danger ? 'small-button danger' : 'small-button'} disabled={disabled} aria-label={name} onClick={onClick}>
      {label}
    </button>
  );
}
