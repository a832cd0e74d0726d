import type { ReactNode } from 'react';
import { useT, type MessageKey } from '../../i18n';
import { ClassBadge } from '../../shared/ClassBadge';
import { Spinner } from '../../shared/Spinner';
import { awaitingDecision, type ToolEntry } from './chat-state';

/** A tool call: command, safety class, warnings, Approve/Reject while it waits, then its output. */
export function ToolCard({
  entry,
  streaming,
  onDecide,
}: {
  entry: ToolEntry;
  streaming: boolean;
  onDecide: (id: string, approved: boolean) => void;
}): ReactNode {
  const t = useT();
  const waiting = awaitingDecision(entry, streaming);
  const running = streaming && !entry.status && !waiting && !entry.blocked && entry.decision !== 'rejected';
  return (
    <article className={`tool-card tool-${entry.type}${waiting ? ' waiting' : ''}`} aria-label={`${entry.tool}: ${entry.command}`}>
      <header className="tool-head">
        <span className="tool-name">{entry.tool}</span>
        <ClassBadge type={entry.type} />
        {entry.blocked && <span className="badge badge-dangerous">{t('tool.blocked')}</span>}
        {entry.decision && <span className="muted small">{t(`tool.decision.${entry.decision}` as MessageKey)}</span>}
        {entry.status && entry.status !== 'executed' && <span className="muted small">{entry.status}</span>}
      </header>
      <pre className="code command">{entry.command}</pre>
      {entry.warnings.length > 0 && (
        <ul className="warnings">
          {entry.warnings.map((warning) => (
            <li key={warning}>⚠ {warning}</li>
          ))}
        </ul>
      )}
      {waiting && (
        <div className="tool-actions">
          <span className="muted small">{t('tool.waiting')}</span>
          <button type="button" className="primary" disabled={entry.deciding} onClick={() => onDecide(entry.id, true)}>
            {t('tool.approve')}
          </button>
          <button type="button" disabled={entry.deciding} onClick={() => onDecide(entry.id, false)}>
            {t('tool.reject')}
          </button>
        </div>
      )}
      {entry.decisionError && (
        <p className="notice notice-error compact" role="alert">
          {entry.decisionError}
        </p>
      )}
      {running && <Spinner label={t('tool.running')} />}
      {entry.result !== undefined && (
        <details className="tool-output" open={entry.result.length < 2000}>
          <summary>{t('tool.output')}</summary>
          <pre className="code">{entry.result}</pre>
        </details>
      )}
    </article>
  );
}
