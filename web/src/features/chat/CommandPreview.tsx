import type { ReactNode } from 'react';
import type { SafetyReport } from '@pilothouse/wire/types';
import { useT } from '../../i18n';
import { ClassBadge } from '../../shared/ClassBadge';

/** The safety class of the command being typed (from `POST /api/tool/analyze`). */
export function CommandPreview({ report }: { report: SafetyReport | undefined }): ReactNode {
  const t = useT();
  if (!report) return null;
  return (
    <div className="command-preview" role="status">
      <span className="muted small">{t('chat.preview')}</span> <ClassBadge type={report.type} />
      {report.blocked && <span className="badge badge-dangerous">{t('chat.previewBlocked')}</span>}
      {!report.blocked && report.requiresApproval && <span className="muted small"> · {t('chat.previewApproval')}</span>}
      {report.warnings.length > 0 && <div className="small warn-text">⚠ {report.warnings.join(' · ')}</div>}
    </div>
  );
}
