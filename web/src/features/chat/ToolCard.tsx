import { useEffect, useState, type ReactNode } from 'react';
import type { AccessNeeded } from '@pilothouse/wire/types';
import { managedByText } from '@pilothouse/wire/managed-by';
import { useT, type MessageKey } from '../../i18n';
import { RequestAccess } from '../access/RequestAccess';
import { PromqlChart } from '../history/PromqlChart';
import { ClassBadge } from '../../shared/ClassBadge';
import { Spinner } from '../../shared/Spinner';
import { awaitingDecision, type ToolEntry } from './chat-state';

interface ToolCardProps {
  entry: ToolEntry;
  streaming: boolean;
  onDecide: (id: string, approved: boolean) => void;
}

/** The cluster a call runs on, in bold: a production write must never look like a staging one. */
function ToolCluster({ cluster }: { cluster: string }): ReactNode {
  const t = useT();
  return (
    <span className="tool-cluster" data-testid="tool-cluster">
      {t('tool.cluster')} <strong>{cluster}</strong>
    </span>
  );
}

/** Tool name, safety class, cluster, and what became of the call (blocked, decision, status). */
function ToolHead({ entry }: { entry: ToolEntry }): ReactNode {
  const t = useT();
  return (
    <header className="tool-head">
      <span className="tool-name">{entry.tool}</span>
      <ClassBadge type={entry.type} />
      {entry.cluster && <ToolCluster cluster={entry.cluster} />}
      {entry.blocked && <span className="badge badge-dangerous">{t('tool.blocked')}</span>}
      {entry.decision && <span className="muted small">{t(`tool.decision.${entry.decision}` as MessageKey)}</span>}
      {entry.status && entry.status !== 'executed' && entry.status !== entry.decision && (
        <span className="muted small">{entry.status === 'timeout' ? t('tool.timedOut') : entry.status}</span>
      )}
    </header>
  );
}

/** Seconds until `expiresAt`, ticking once a second while above zero. */
function useSecondsLeft(expiresAt: number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (expiresAt === undefined) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  return expiresAt === undefined ? undefined : Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/** Approve / Reject while the call waits for the user, with the seconds left before it times out. */
function ToolDecision({ entry, onDecide }: Omit<ToolCardProps, 'streaming'>): ReactNode {
  const t = useT();
  const secondsLeft = useSecondsLeft(entry.expiresAt);
  const expired = secondsLeft === 0;
  return (
    <div className="tool-actions">
      <span className="muted small" role="timer" aria-live="off">
        {expired ? t('tool.timedOut') : secondsLeft === undefined ? t('tool.waiting') : t('tool.waitingFor', { seconds: secondsLeft })}
      </span>
      {entry.cluster && <ToolCluster cluster={entry.cluster} />}
      <button type="button" className="primary" disabled={entry.deciding || expired} onClick={() => onDecide(entry.id, true)}>
        {t('tool.approve')}
      </button>
      <button type="button" disabled={entry.deciding || expired} onClick={() => onDecide(entry.id, false)}>
        {t('tool.reject')}
      </button>
    </div>
  );
}

/** The call's output, folded when long. */
function ToolOutput({ result }: { result: string }): ReactNode {
  const t = useT();
  return (
    <details className="tool-output" open={result.length < 2000}>
      <summary>{t('tool.output')}</summary>
      <pre className="code">{result}</pre>
    </details>
  );
}

/** What the policy refused for want of an access request, and "Request access" prefilled with exactly that scope. */
function ToolAccess({ scope }: { scope: AccessNeeded }): ReactNode {
  const t = useT();
  const namespaces = scope.namespaces.length ? scope.namespaces.join(', ') : t('access.all');
  return (
    <div className="tool-access notice compact">
      <p className="small">{t('tool.accessNeeded', { permission: scope.permission, resources: scope.resources.join(', '), namespaces })}</p>
      <RequestAccess prefill={scope} />
    </div>
  );
}

/** A promql call that ran, drawn as a chart (the other tools' output is text only). */
function ToolChart({ entry }: { entry: ToolEntry }): ReactNode {
  return entry.tool === 'promql' && entry.status === 'executed' ? <PromqlChart command={entry.command} cluster={entry.cluster} /> : null;
}

/** Whether the call runs now (streaming, not waiting, not yet answered). */
function isRunning(entry: ToolEntry, streaming: boolean, waiting: boolean): boolean {
  return streaming && !entry.status && !waiting && !entry.blocked && entry.decision !== 'rejected';
}

/** Objects of the call that Argo CD or Flux manages: a manual change is reverted by that controller. */
function ManagedNotes({ entry }: { entry: ToolEntry }): ReactNode {
  const t = useT();
  if (!entry.managedBy?.length) return null;
  return (
    <ul className="warnings managed-by" aria-label={t('tool.managedByLabel')}>
      {entry.managedBy.map(({ object, manager }) => {
        const target = `${object.kind.toLowerCase()}/${object.name}${object.namespace ? ` -n ${object.namespace}` : ''}`;
        return <li key={target}>↺ {t('tool.managedBy', { object: target, manager: managedByText(manager) })}</li>;
      })}
    </ul>
  );
}

/** A tool call: command, safety class, warnings, Approve/Reject while it waits, then its output. */
export function ToolCard({ entry, streaming, onDecide }: ToolCardProps): ReactNode {
  const t = useT();
  const waiting = awaitingDecision(entry, streaming);
  return (
    <article
      className={`tool-card tool-${entry.type}${waiting ? ' waiting' : ''}`}
      aria-label={`${entry.tool}${entry.cluster ? ` (${t('tool.cluster')} ${entry.cluster})` : ''}: ${entry.command}`}
    >
      <ToolHead entry={entry} />
      <pre className="code command">{entry.command}</pre>
      {entry.warnings.length > 0 && (
        <ul className="warnings">
          {entry.warnings.map((warning) => (
            <li key={warning}>⚠ {warning}</li>
          ))}
        </ul>
      )}
      <ManagedNotes entry={entry} />
      {waiting && <ToolDecision entry={entry} onDecide={onDecide} />}
      {entry.decisionError && (
        <p className="notice notice-error compact" role="alert">
          {entry.decisionError}
        </p>
      )}
      {isRunning(entry, streaming, waiting) && <Spinner label={t('tool.running')} />}
      {entry.result !== undefined && <ToolOutput result={entry.result} />}
      <ToolChart entry={entry} />
      {entry.accessNeeded && <ToolAccess scope={entry.accessNeeded} />}
    </article>
  );
}
