import { useState, type ReactNode } from 'react';
import { TextField } from '../../shared/TextField';
import { useSubmit } from '../../shared/use-submit';
import { useApi } from '../../shared/api-context';
import { useCluster } from '../../shared/cluster-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { investigationsPath } from './investigation-types';

/** The subject an investigation is asked about. */
export interface SubjectInput {
  kind: string;
  namespace?: string;
  name: string;
}

/** Starts an investigation (POST /api/investigations) of the current cluster (none chosen: the home cluster); resolves to its name. */
export async function startInvestigation(client: ReturnType<typeof useApi>, cluster: string, question: string, subject?: SubjectInput): Promise<string> {
  // The home cluster ('') is named by leaving `cluster` out (the body takes a cluster's name only).
  const body = { question, ...(cluster ? { cluster } : {}), ...(subject ? { subject } : {}) };
  return (await client.call('POST', investigationsPath, { body })).metadata.name;
}

/** Ask the pilot: a question and, optionally, the object it is about. */
export function InvestigationForm({ namespace, onStarted }: { namespace: string; onStarted: (name: string) => void }): ReactNode {
  const t = useT();
  const client = useApi();
  const cluster = useCluster();
  const [question, setQuestion] = useState('');
  const [kind, setKind] = useState('');
  const [target, setTarget] = useState(namespace);
  const [name, setName] = useState('');
  const { busy, error, submit } = useSubmit(async () => {
    const subject = kind.trim() && name.trim() ? { kind: kind.trim(), name: name.trim(), ...(target.trim() ? { namespace: target.trim() } : {}) } : undefined;
    onStarted(await startInvestigation(client, cluster, question.trim(), subject));
    setQuestion('');
  });
  return (
    <form className="card page-section" onSubmit={submit} aria-labelledby="investigation-form-title">
      <h2 id="investigation-form-title">{t('investigations.ask')}</h2>
      <p className="muted small">{t('investigations.readOnly')}</p>
      <div className="form-row">
        <TextField label={t('investigations.question')} value={question} onValue={setQuestion} required maxLength={4000} />
        <TextField label={t('investigations.kind')} value={kind} onValue={setKind} placeholder="Deployment" />
        <TextField label={t('investigations.namespace')} value={target} onValue={setTarget} />
        <TextField label={t('investigations.name')} value={name} onValue={setName} />
        <button type="submit" className="primary" disabled={busy || !question.trim()}>
          {t('investigations.start')}
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}
