import { useState, type ReactNode } from 'react';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import type { LlmTestResult } from './llm-types';

/** "Test connection": one short chat turn with the saved configuration; shows the answer or the provider's error. */
export function LlmTestButton(): ReactNode {
  const t = useT();
  const client = useApi();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<LlmTestResult>();
  const [error, setError] = useState<unknown>();
  const test = async (): Promise<void> => {
    setBusy(true);
    setResult(undefined);
    setError(undefined);
    try {
      setResult(await client.call('POST', '/api/llm/test'));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" onClick={() => void test()} disabled={busy}>
        {busy ? t('llm.testing') : t('llm.test')}
      </button>
      <div className="llm-test-result" aria-live="polite">
        {result?.ok && (
          <p className="notice notice-ok" role="status">
            {t('llm.testOk', { provider: result.provider, model: result.model })} <q>{result.answer}</q>
          </p>
        )}
        {result && !result.ok && (
          <div className="notice notice-error" role="alert">
            {result.code && <span className="notice-code">{result.code}</span>} {t('llm.testFailed')}: {result.error}
          </div>
        )}
        <ErrorNotice error={error} compact />
      </div>
    </>
  );
}
