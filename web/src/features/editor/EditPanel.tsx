import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { ApplyResult } from '@pilothouse/wire/types';
import { useApi } from '../../shared/api-context';
import { useT } from '../../i18n';
import { ErrorNotice } from '../../shared/ErrorNotice';
import { objectPath, targetKey, type ResourceTarget } from '../../shared/resource-target';
import { applyManifest, conflictsOf, type Conflict } from './apply-api';
import { ApplyProblems, ConflictList } from './ApplyProblems';
import { ReviewDiff } from './ReviewDiff';
import { useKindSchema } from './use-kind-schema';
import { YamlEditor } from './YamlEditor';
import './editor.css';

interface Review {
  live: string;
  result: ApplyResult;
  /** Fields other managers own that this change takes over (the diff then comes from a forced dry run). */
  conflicts: Conflict[];
}

/** The dry run of a change; on conflicts, a forced dry run still shows what applying anyway would do. */
async function dryRun(client: ReturnType<typeof useApi>, resource: string, text: string): Promise<{ result: ApplyResult; conflicts: Conflict[] }> {
  try {
    return { result: await applyManifest(client, resource, text, { dryRun: true }), conflicts: [] };
  } catch (error) {
    const conflicts = conflictsOf(error);
    if (conflicts.length === 0) throw error;
    return { result: await applyManifest(client, resource, text, { dryRun: true, force: true }), conflicts };
  }
}

/** Runs one apply step, keeping busy/error state. */
function useStep(): { busy: boolean; error: unknown; run: (step: () => Promise<void>) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (step: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await step();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** The diff of the review and the fields it takes over from other managers. */
function ReviewView({ review }: { review: Review }): ReactNode {
  const t = useT();
  return (
    <>
      <ReviewDiff before={review.live} after={review.result.yaml} labels={{ before: t('objects.editor.live'), after: t('objects.editor.dryRun') }} />
      {review.conflicts.length > 0 && <ConflictList conflicts={review.conflicts} />}
    </>
  );
}

/** Apply (or "Apply anyway" when the change takes fields over) and back to the editor. */
function ReviewActions({ review, busy, onApply, onBack }: { review: Review; busy: boolean; onApply: (force: boolean) => void; onBack: () => void }): ReactNode {
  const t = useT();
  const force = review.conflicts.length > 0;
  return (
    <>
      <button type="button" className={force ? 'danger' : 'primary'} onClick={() => onApply(force)} disabled={busy}>
        {force ? t('objects.editor.force') : t('objects.editor.apply')}
      </button>
      <button type="button" onClick={onBack} disabled={busy}>
        {t('objects.editor.back')}
      </button>
    </>
  );
}

/**
 * Edit an object: its YAML in CodeMirror (validated against the kind's schema), "Review changes"
 * shows the live object against the server-side dry run, then Apply (server-side apply, field
 * manager pilothouse). Conflicts list the fields and their managers, with "Apply anyway".
 */
export function EditPanel({ target, onClose }: { target: ResourceTarget; onClose: (message?: string) => void }): ReactNode {
  const client = useApi();
  const queries = useQueryClient();
  const t = useT();
  const schemas = useKindSchema(target.resource);
  const live = useQuery({
    queryKey: ['yaml', targetKey(target)],
    queryFn: ({ signal }) => client.text(objectPath(target, '/yaml'), { query: { namespace: target.namespace }, signal }),
    staleTime: 0,
  });
  const [text, setText] = useState<string>();
  const [review, setReview] = useState<Review>();
  const step = useStep();
  const current = text ?? live.data ?? '';

  const reviewChanges = (): Promise<void> =>
    step.run(async () => {
      const [{ result, conflicts }, liveText] = await Promise.all([
        dryRun(client, target.resource, current),
        live.refetch().then((answer) => answer.data ?? ''),
      ]);
      setReview({ live: liveText, result, conflicts });
    });
  const apply = (force: boolean): Promise<void> =>
    step.run(async () => {
      await applyManifest(client, target.resource, current, { dryRun: false, force });
      await queries.invalidateQueries({ queryKey: ['object', targetKey(target)] });
      await queries.invalidateQueries({ queryKey: ['yaml', targetKey(target)] });
      onClose(t('objects.editor.applied', { name: target.name }));
    });

  return (
    <section className="edit-panel" aria-label={t('objects.editor.title', { name: target.name })}>
      <h2>{review ? t('objects.editor.reviewTitle') : t('objects.editor.title', { name: target.name })}</h2>
      <ErrorNotice error={live.error} />
      {live.data !== undefined && !review && <YamlEditor initial={live.data} onChange={setText} schemas={schemas} label={t('objects.editor.label')} />}
      {review && <ReviewView review={review} />}
      <ApplyProblems error={step.error} busy={step.busy} onForce={() => void apply(true)} />
      <div className="tab-actions">
        {review ? (
          <ReviewActions review={review} busy={step.busy} onApply={(force) => void apply(force)} onBack={() => setReview(undefined)} />
        ) : (
          <button type="button" className="primary" onClick={() => void reviewChanges()} disabled={step.busy || live.data === undefined}>
            {t('objects.editor.review')}
          </button>
        )}
        <button type="button" onClick={() => onClose()} disabled={step.busy}>
          {t('objects.editor.cancel')}
        </button>
      </div>
    </section>
  );
}
