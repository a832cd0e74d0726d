import type { Condition } from '../crds/common.js';
import type { InvestigationStatus, SuggestedAction } from '../crds/investigation.js';
import type { SafetyAnalyzer } from '../tools/safety/index.js';
import { setCondition, type WantedCondition } from '../controllers/conditions.js';
import type { Conclusion } from './conclude-tool.js';

/** Pilothouse's own class of a suggested command (never the model's): the kubectl safety classifier's, or `blocked`. */
export function classifyAction(safety: Pick<SafetyAnalyzer, 'analyzeSync'>, command: string): string {
  const report = safety.analyzeSync('kubectl', command.replace(/^\s*kubectl\s+/, ''));
  return report.blocked ? 'blocked' : report.type;
}

/** The suggested actions of a conclusion, each classified by Pilothouse. */
export function suggestedActions(safety: Pick<SafetyAnalyzer, 'analyzeSync'>, conclusion: Conclusion): SuggestedAction[] {
  return conclusion.suggestedActions.map((action) => ({
    command: action.command,
    class: classifyAction(safety, action.command),
    ...(action.rationale ? { rationale: action.rationale } : {}),
  }));
}

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
