import type { ReactNode } from 'react';
import { ErrorNotice } from '../../shared/ErrorNotice';
import type { ActionState } from '../../shared/use-action';

/** A page's load error or last action's error (dismissable), and the last action's message. */
export function ActionNotices({ action, error }: { action: ActionState; error?: unknown }): ReactNode {
  const shown = error ?? action.error;
  return (
    <>
      <ErrorNotice error={shown ?? undefined} onDismiss={action.error ? action.dismiss : undefined} />
      {action.message && (
        <p className="notice notice-ok" role="status">
          {action.message}
        </p>
      )}
    </>
  );
}
