import { useState, type FormEvent, type ReactNode } from 'react';
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const subject = kind.trim() && name.trim() ? { kind: kind.trim(), name: name.trim(), ...(target.trim() ? { namespace: target.trim() } : {}) } : undefined;
      onStarted(await startInvestigation(client, cluster, question.trim(), subject));
      setQuestion('');
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card page-section" onSubmit={(event) => void submit(event)} aria-labelledby="investigation-form-title">
      <h2 id="investigation-form-title">{t('investigations.ask')}</h2>
      <p className="muted small">{t('investigations.readOnly')}</p>
      <div className="form-row">
        <label className="field">
          <span>{t('investigations.question')}</span>
          <input value={question} onChange={(event) => setQuestion(event.target.value)} required maxLength={4000} />
        </label>
        <label className="field">
          <span>{t('investigations.kind')}</span>
          <input value={kind} onChange={(event) => setKind(event.target.value)} placeholder="Deployment" />
        </label>
        <label className="field">
          <span>{t('investigations.namespace')}</span>
          <input value={target} onChange={(event) => setTarget(event.target.value)} />
        </label>
        <label className="field">
          <span>{t('investigations.name')}</span>
          <input value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={busy || !question.trim()}>
          {t('investigations.start')}
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}
