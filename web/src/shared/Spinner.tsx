import type { ReactNode } from 'react';

/** A small spinner; `label` is read by screen readers. */
export function Spinner({ label }: { label: string }): ReactNode {
  return <span className="spinner" role="status" aria-label={label} title={label} />;
}
