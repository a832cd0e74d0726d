import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { conflictsOf, type Conflict } from './apply-api';

/** Fields other managers own, with the manager: what applying anyway takes over. */
export function ConflictList({ conflicts, children }: { conflicts: Conflict[]; children?: ReactNode }): ReactNode {
  const t = useT();
  return (
    <div className="notice notice-warn apply-conflicts" role="alert">
      <p>{t('objects.editor.conflicts')}</p>
      <table className="data-table compact">
        <thead>
          <tr>
            <th scope="col">{t('objects.editor.field')}</th>
            <th scope="col">{t('objects.editor.manager')}</th>
          </tr>
        </thead>
        <tbody>
          {conflicts.map((conflict) => (
            <tr key={`${conflict.field}|${conflict.manager}`}>
              <td className="mono">{conflict.field}</td>
              <td className="mono">{conflict.manager}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {children}
    </div>
  );
}

/** A failed dry run or apply: conflicts as a table (field, owning manager) with "Apply anyway", other errors as a notice. */
export function ApplyProblems({ error, onForce, busy }: { error: unknown; onForce: () => void; busy: boolean }): ReactNode {
  const t = useT();
  const conflicts = conflictsOf(error);
  if (conflicts.length === 0) return <ErrorNotice error={error} />;
  return (
    <ConflictList conflicts={conflicts}>
      <button type="button" className="danger" onClick={onForce} disabled={busy}>
        {t('objects.editor.force')}
      </button>
    </ConflictList>
  );
}
