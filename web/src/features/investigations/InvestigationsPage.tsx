import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useT } from '../../i18n';
import { useAction } from '../../shared/use-action';
import { useApiQuery } from '../../shared/use-api-query';
import { ActionNotices } from '../layout/ActionNotices';
import { InvestigationDetails } from './InvestigationDetails';
import { InvestigationForm } from './InvestigationForm';
import { investigationsPath, subjectText, type Investigation } from './investigation-types';
import '../layout/pages.css';

const phaseTone: Record<string, string> = { Concluded: 'tone-good', Failed: 'tone-bad', Skipped: 'tone-warn', Running: 'tone-warn', Pending: 'tone-warn' };

/** One investigation: its phase, subject and summary; expanded, its findings and suggested actions. */
function InvestigationRow({ investigation, open, onToggle }: { investigation: Investigation; open: boolean; onToggle: () => void }): ReactNode {
  const t = useT();
  const queries = useQueryClient();
  const action = useAction(() => void queries.invalidateQueries({ queryKey: [investigationsPath] }));
  const phase = investigation.status?.phase ?? 'Pending';
  return (
    <li className="card page-section">
      <button type="button" className="link-button" aria-expanded={open} onClick={onToggle}>
        <strong>{investigation.metadata.name}</strong>
      </button>{' '}
      <span className={phaseTone[phase]}>{phase}</span> <span className="muted small">{subjectText(investigation)}</span>
      <p className="small">{investigation.spec.question}</p>
      {investigation.status?.summary && <p>{investigation.status.summary}</p>}
      <p className="muted small">
        {t('investigations.requester')}: {investigation.spec.requester ?? ''} · {t('investigations.created')}: {investigation.metadata.creationTimestamp ?? ''}
      </p>
      {open && <InvestigationDetails investigation={investigation} action={action} />}
      <ActionNotices action={action} />
    </li>
  );
}

/** Investigations (issue 37): ask the pilot, follow each run live (polled), approve a suggested action. */
export function InvestigationsPage({ namespace }: { namespace: string }): ReactNode {
  const t = useT();
  const queries = useQueryClient();
  const list = useApiQuery(investigationsPath, { refetchInterval: 3000 });
  // `?name=` (a link from an object page's problem banner) opens that one.
  const [open, setOpen] = useState<string | undefined>(() => new URLSearchParams(window.location.search).get('name') ?? undefined);
  const rows = list.data?.items ?? [];
  return (
    <section className="page" aria-labelledby="investigations-title">
      <div className="toolbar">
        <h1 id="investigations-title">{t('investigations.title')}</h1>
      </div>
      <InvestigationForm
        namespace={namespace}
        onStarted={(name) => {
          setOpen(name);
          void queries.invalidateQueries({ queryKey: [investigationsPath] });
        }}
      />
      {list.data && rows.length === 0 && <p className="muted pad">{t('investigations.empty')}</p>}
      <ul className="plain-list">
        {rows.map((investigation) => (
          <InvestigationRow
            key={investigation.metadata.name}
            investigation={investigation}
            open={open === investigation.metadata.name}
            onToggle={() => setOpen(open === investigation.metadata.name ? undefined : investigation.metadata.name)}
          />
        ))}
      </ul>
    </section>
  );
}
