import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { conflictsOf } from './apply-api';

/** A failed dry run or apply: conflicts as a table (field, owning manager) with "Apply anyway", other errors as a notice. */
export function ApplyProblems({ error, onForce, busy }: { error: unknown; onForce: () => void; busy: boolean }): ReactNode {
  const t = useT();
  const conflicts = conflictsOf(error);
  if (conflicts.length === 0) return <ErrorNotice error={error} />;
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
      <button type="button" className="danger" onClick={onForce} disabled={busy}>
        {t('objects.editor.force')}
      </button>
    </div>
  );
}
