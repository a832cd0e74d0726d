import { useState, type FormEvent, type ReactNode } from 'react';
import type { Language, UserSettings } from '@pilothouse/wire/types';
import { languageNames, useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { useSettings } from './settings-context';
import { useApi } from '../../shared/api-context';
import { LlmSettingsSection } from '../llm/LlmSettingsSection';

/** The user's settings: language, beginner mode, auto-approval of read-only commands. */
export function SettingsPage(): ReactNode {
  const t = useT();
  const { settings, error: loadError, save } = useSettings();
  const [draft, setDraft] = useState<UserSettings | undefined>(settings);
  const [draftOf, setDraftOf] = useState(settings);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const isAdmin = useApi().current?.role === 'admin';

  // New settings from the service replace the draft (adjusting state while rendering, not in an effect).
  if (draftOf !== settings) {
    setDraftOf(settings);
    setDraft(settings);
  }

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!draft) return;
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await save(draft);
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page" aria-labelledby="settings-title">
      <div className="toolbar">
        <h1 id="settings-title">{t('settings.title')}</h1>
      </div>
      <ErrorNotice error={loadError ?? error} />
      {!draft && !loadError && <p className="muted pad">{t('common.loading')}</p>}
      {draft && (
        <form className="card settings-form" onSubmit={(event) => void submit(event)}>
          <label className="field">
            <span>{t('settings.language')}</span>
            <select value={draft.language} onChange={(event) => setDraft({ ...draft, language: event.target.value as Language })}>
              {(Object.keys(languageNames) as Language[]).map((language) => (
                <option key={language} value={language}>
                  {languageNames[language]}
                </option>
              ))}
            </select>
          </label>
          <label className="checkbox-field">
            <input type="checkbox" checked={draft.beginner_mode} onChange={(event) => setDraft({ ...draft, beginner_mode: event.target.checked })} />
            <span>{t('settings.beginner')}</span>
          </label>
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={draft.auto_approve_readonly}
              onChange={(event) => setDraft({ ...draft, auto_approve_readonly: event.target.checked })}
            />
            <span>{t('settings.autoApprove')}</span>
          </label>
          <div>
            <button type="submit" className="primary" disabled={busy}>
              {t('settings.save')}
            </button>
          </div>
          {saved && (
            <p className="notice notice-ok" role="status">
              {t('settings.saved')}
            </p>
          )}
        </form>
      )}
      {isAdmin && <LlmSettingsSection />}
    </section>
  );
}
