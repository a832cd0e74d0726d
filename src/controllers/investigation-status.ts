import type { Condition } from '../crds/common.js';
import type { InvestigationStatus } from '../crds/investigation.js';
import { setCondition, type WantedCondition } from './conditions.js';

/** Merges wanted conditions into existing ones (Kubernetes semantics: lastTransitionTime moves on a status change). */
export function withConditions(
  existing: readonly Condition[] | undefined,
  wanted: readonly WantedCondition[],
  generation: number | undefined,
  now: string,
): Condition[] {
  let conditions = [...(existing ?? [])];
  for (const condition of wanted) conditions = setCondition(conditions, condition, generation, now).conditions;
  return conditions;
}

/** The status of a run that ended without a conclusion, by how the turn ended. */
export function failureReason(reason: string, stepCap: number): { reason: string; message: string } {
  if (reason === 'step_cap') return { reason: 'StepCap', message: `the pilot did not conclude within ${stepCap} model steps (investigations.max_steps)` };
  if (reason === 'final_answer') return { reason: 'NoConclusion', message: 'the pilot answered without calling conclude' };
  if (reason === 'cancelled') return { reason: 'Interrupted', message: 'the run was stopped (leadership lost or shutdown)' };
  return { reason: 'RunFailed', message: 'the model call failed (see the session transcript)' };
}

/** Whether a phase is final. */
export function isFinished(status: InvestigationStatus | undefined): boolean {
  const phase = status?.phase;
  return phase === 'Concluded' || phase === 'Failed' || phase === 'Skipped';
}
