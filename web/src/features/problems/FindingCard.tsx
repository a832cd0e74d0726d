import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { Link, objectRoutePath } from '../../shared/router';
import { formatTime } from '../../shared/time';
import { objectText, targetOf, type Finding } from './problem-model';

/** A link to the object page of a finding's object (or owner). */
function ObjectLink({ object }: { object: Finding['object'] }): ReactNode {
  return <Link to={objectRoutePath(targetOf(object))}>{objectText(object)}</Link>;
}

/**
 * One finding: severity and reason, the message, the object (linked to its page) and its owner, since and last
 * seen, the evidence it rests on (quoted, as the server has it) and the read-only next step; `actions` below.
 */
export function FindingCard({ finding, actions, showObject = true }: { finding: Finding; actions?: ReactNode; showObject?: boolean }): ReactNode {
  const t = useT();
  return (
    <article
      className={`finding finding-${finding.severity}`}
      data-testid={`finding-${finding.id}`}
      aria-label={`${finding.reason} ${objectText(finding.object)}`}
    >
      <header className="finding-head">
        <span className={`severity severity-${finding.severity}`}>{t(`problems.severity.${finding.severity}`)}</span>
        <strong className="finding-reason">{finding.reason}</strong>
        {showObject && <ObjectLink object={finding.object} />}
        {finding.owner && (
          <span className="muted small">
            {t('problems.owner')} <ObjectLink object={{ ...finding.owner, namespace: finding.owner.namespace ?? finding.object.namespace }} />
          </span>
        )}
      </header>
      <p className="finding-message">{finding.message}</p>
      {finding.evidence.length > 0 && (
        <blockquote className="finding-evidence" aria-label={t('problems.evidence')}>
          {finding.evidence.map((line) => (
            <code key={line}>{line}</code>
          ))}
        </blockquote>
      )}
      <p className="finding-hint small">
        <span className="muted">{t('problems.hint')}</span> <code>{finding.hint}</code>
      </p>
      <p className="finding-times muted small">{t('problems.times', { since: formatTime(finding.since), lastSeen: formatTime(finding.lastSeen) })}</p>
      {actions}
    </article>
  );
}
