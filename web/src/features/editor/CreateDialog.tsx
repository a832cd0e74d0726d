import { useState, type ReactNode } from 'react';
import { navigate, objectRoutePath } from '../../shared/router';
import type { ApplyResult } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { applyManifest, manifestTemplate } from './apply-api';
import { ApplyProblems } from './ApplyProblems';
import { ReviewDiff } from './ReviewDiff';
import { useKindSchema } from './use-kind-schema';
import { YamlEditor } from './YamlEditor';
import './editor.css';

interface Created {
  metadata?: { name?: string; namespace?: string };
}

/** "Create from YAML": a manifest in the editor, the server's dry run to review, then create (server-side apply) and open the new object's page. */
export function CreateDialog({ resource, namespace, onClose }: { resource: string; namespace: string; onClose: () => void }): ReactNode {
  const client = useApi();
  const t = useT();
  const schemas = useKindSchema(resource);
  const [initial] = useState(() => manifestTemplate(resource, namespace));
  const [text, setText] = useState(initial);
  const [review, setReview] = useState<ApplyResult>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const send = async (dryRun: boolean, force = false): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const result = await applyManifest(client, resource, text, { dryRun, force });
      if (dryRun) return setReview(result);
      const created = result.object as Created;
      onClose();
      navigate(objectRoutePath({ resource, namespace: created.metadata?.namespace, name: created.metadata?.name ?? '' }));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="edit-panel create-panel" aria-label={t('objects.create')}>
      <h2>{t('objects.createTitle', { kind: resource })}</h2>
      {!review && <YamlEditor initial={initial} onChange={setText} schemas={schemas} label={t('objects.editor.label')} />}
      {review && <ReviewDiff before="" after={review.yaml} labels={{ before: t('objects.editor.live'), after: t('objects.editor.dryRun') }} />}
      <ApplyProblems error={error} busy={busy} onForce={() => void send(false, true)} />
      <div className="tab-actions">
        {!review ? (
          <button type="button" className="primary" onClick={() => void send(true)} disabled={busy}>
            {t('objects.editor.review')}
          </button>
        ) : (
          <>
            <button type="button" className="primary" onClick={() => void send(false)} disabled={busy}>
              {t('objects.createButton')}
            </button>
            <button type="button" onClick={() => setReview(undefined)} disabled={busy}>
              {t('objects.editor.back')}
            </button>
          </>
        )}
        <button type="button" onClick={onClose} disabled={busy}>
          {t('objects.editor.cancel')}
        </button>
      </div>
    </section>
  );
}
