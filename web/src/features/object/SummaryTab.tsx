import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { formatTime } from '../../shared/time';
import type { ResourceTarget } from '../../shared/resource-target';
import type { ObjectShape } from './related';
import { useObject } from './use-object';
import { KindSummary } from './summary/KindSummary';
import { lastAppliedAnnotation } from './summary/summary-model';

/** The last applied manifest kubectl keeps in an annotation: collapsed, opened on demand. */
function LastApplied({ value }: { value: string }): ReactNode {
  const t = useT();
  return (
    <li className="mono small">
      <details className="last-applied">
        <summary>
          {lastAppliedAnnotation} <span className="muted">({t('summary.lastAppliedSize', { size: value.length })})</span>
        </summary>
        <pre className="last-applied-text">{value}</pre>
      </details>
    </li>
  );
}

function Pairs({ values }: { values: Record<string, string> | undefined }): ReactNode {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) return <span className="muted">-</span>;
  return (
    <ul className="pairs">
      {entries.map(([key, value]) =>
        key === lastAppliedAnnotation ? (
          <LastApplied key={key} value={value} />
        ) : (
          <li key={key} className="mono small">
            {key}={value}
          </li>
        ),
      )}
    </ul>
  );
}

function Conditions({ object }: { object: ObjectShape }): ReactNode {
  const t = useT();
  const conditions = object.status?.conditions ?? [];
  if (conditions.length === 0) return null;
  return (
    <>
      <h3>{t('objects.conditions')}</h3>
      <table className="data-table compact">
        <thead>
          <tr>
            <th scope="col">{t('objects.conditionType')}</th>
            <th scope="col">{t('objects.conditionStatus')}</th>
            <th scope="col">{t('objects.conditionReason')}</th>
            <th scope="col">{t('objects.conditionMessage')}</th>
          </tr>
        </thead>
        <tbody>
          {conditions.map((condition) => (
            <tr key={condition.type}>
              <td>{condition.type}</td>
              <td className={condition.status === 'True' ? 'tone-good' : 'tone-warn'}>{condition.status}</td>
              <td>{condition.reason ?? ''}</td>
              <td>{condition.message ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }): ReactNode {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

function Fields({ data }: { data: ObjectShape }): ReactNode {
  const t = useT();
  const metadata = data.metadata ?? {};
  return (
    <dl className="summary-list">
      <Field label={t('objects.kind')}>
        {data.kind} <span className="muted small">{data.apiVersion}</span>
      </Field>
      {metadata.namespace && <Field label={t('objects.namespace')}>{metadata.namespace}</Field>}
      <Field label={t('objects.created')}>{metadata.creationTimestamp ? formatTime(metadata.creationTimestamp) : '-'}</Field>
      {data.status?.phase && <Field label={t('objects.phase')}>{data.status.phase}</Field>}
      <Field label={t('objects.labels')}>
        <Pairs values={metadata.labels} />
      </Field>
      <Field label={t('objects.annotations')}>
        <Pairs values={metadata.annotations} />
      </Field>
    </dl>
  );
}

/** Summary: kind, namespace, age, phase, labels, annotations (kubectl's last applied manifest collapsed), what matters for the kind, and status conditions. */
export function SummaryTab({ target }: { target: ResourceTarget }): ReactNode {
  const t = useT();
  const object = useObject(target);
  return (
    <div className="summary-tab">
      <ErrorNotice error={object.error} />
      {object.isLoading && <p className="muted">{t('tab.loading')}</p>}
      {object.data && (
        <>
          <Fields data={object.data} />
          <KindSummary object={object.data} />
          <Conditions object={object.data} />
        </>
      )}
    </div>
  );
}
