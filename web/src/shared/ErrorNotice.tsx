import type { ReactNode } from 'react';
import { ApiError } from '@pilothouse/wire/wire-client';
import { useT, type Translate } from '../i18n';
import { useApprovalAction } from './access-context';

/** The text shown for an error: the contract's message, with a hint for access problems. */
export function errorText(error: unknown, t: Translate): { message: string; hint?: string; code?: string } {
  if (error instanceof ApiError) {
    if (error.approvalRequired) return { message: error.message, hint: t('error.approvalRequired'), code: error.code };
    if (error.status === 403) return { message: error.message, hint: t('error.forbidden'), code: error.code };
    if (error.status === 0) return { message: error.message, hint: t('error.network'), code: error.code };
    return { message: error.message, code: error.code };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/** An error from the API shown inline (role alert so screen readers announce it). */
export function ErrorNotice({ error, onDismiss, compact }: { error: unknown; onDismiss?: () => void; compact?: boolean }): ReactNode {
  const t = useT();
  const approvalAction = useApprovalAction();
  if (error === undefined || error === null) return null;
  const { message, hint, code } = errorText(error, t);
  const action = approvalAction && error instanceof ApiError && error.approvalRequired ? approvalAction(error) : null;
  return (
    <div className={compact ? 'notice notice-error compact' : 'notice notice-error'} role="alert">
      <div>
        {code && <span className="notice-code">{code}</span>} {message}
        {hint && <div className="notice-hint">{hint}</div>}
        {action}
      </div>
      {onDismiss && (
        <button type="button" className="link-button" onClick={onDismiss}>
          {t('error.dismiss')}
        </button>
      )}
    </div>
  );
}
