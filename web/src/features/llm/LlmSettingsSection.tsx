import { useQueryClient } from '@tanstack/react-query';
import { SelectField } from '../../shared/SelectField';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useApiQuery } from '../../shared/use-api-query';
import { LlmTestButton } from './LlmTestButton';
import { llmBody, providers, type LlmDraft, type LlmView } from './llm-types';
import '../layout/pages.css';

const path = '/api/settings/llm';

function LlmForm({ view }: { view: LlmView }): ReactNode {
  const t = useT();
  const client = useApi();
  const queries = useQueryClient();
  const [draft, setDraft] = useState<LlmDraft>({ provider: view.provider, model: view.model, baseUrl: view.base_url ?? '', apiKey: '', removeKey: false });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await client.call('PUT', path, { body: llmBody(draft) });
      setDraft({ ...draft, apiKey: '', removeKey: false });
      setSaved(true);
      await queries.invalidateQueries({ queryKey: [path] });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="settings-form" onSubmit={(event) => void submit(event)} aria-labelledby="llm-title">
      <SelectField label={t('llm.provider')} value={draft.provider} options={providers} onValue={(provider) => setDraft({ ...draft, provider })} />
      <label className="field">
        <span>{t('llm.model')}</span>
        <input value={draft.model} onChange={(event) => setDraft({ ...draft, model: event.target.value })} required />
      </label>
      <label className="field">
        <span>{t('llm.baseUrl')}</span>
        <input type="url" value={draft.baseUrl} onChange={(event) => setDraft({ ...draft, baseUrl: event.target.value })} placeholder="https://…/v1" />
      </label>
      <label className="field">
        <span>
          {t('llm.apiKey')}
          <span className={`status-pill key-state ${view.apiKeySet ? 'tone-good' : 'tone-warn'}`} data-testid="llm-key-state">
            {view.apiKeySet ? t('llm.keySet') : t('llm.keyNotSet')}
          </span>
        </span>
        <input
          type="password"
          autoComplete="new-password"
          value={draft.apiKey}
          onChange={(event) => setDraft({ ...draft, apiKey: event.target.value })}
          placeholder={t('llm.keyPlaceholder')}
        />
      </label>
      {view.apiKeySet && (
        <label className="checkbox-field">
          <input type="checkbox" checked={draft.removeKey} onChange={(event) => setDraft({ ...draft, removeKey: event.target.checked })} />
          <span>{t('llm.removeKey')}</span>
        </label>
      )}
      <div className="row-actions">
        <button type="submit" className="primary" disabled={busy}>
          {t('llm.save')}
        </button>
        <LlmTestButton />
      </div>
      {saved && (
        <p className="notice notice-ok" role="status">
          {t('llm.saved')}
        </p>
      )}
      <ErrorNotice error={error} />
    </form>
  );
}

/** Settings page, admins: the LLM provider, model, base URL, write-only key, and "Test connection". */
export function LlmSettingsSection(): ReactNode {
  const t = useT();
  const view = useApiQuery(path);
  return (
    <section className="card page-section" aria-labelledby="llm-title">
      <h2 id="llm-title">{t('llm.title')}</h2>
      <p className="muted small">{t('llm.intro')}</p>
      <ErrorNotice error={view.error} />
      {view.data && <LlmForm view={view.data} />}
    </section>
  );
}
