import type { Condition } from '../crds/common.js';

/** The condition a reconciler wants, before times and generations are filled in. */
export interface WantedCondition {
  type: string;
  status: Condition['status'];
  reason: string;
  message: string;
}

/** The outcome of merging one wanted condition into a status's conditions. */
export interface ConditionUpdate {
  conditions: Condition[];
  /** Whether anything a watcher can see changed (status, reason, message or generation). */
  changed: boolean;
  /** Whether the condition's status or reason changed: a transition worth an Event. */
  transition: boolean;
}

/**
 * Sets one condition (apimachinery's meta.SetStatusCondition): `lastTransitionTime` moves only when
 * the status changes, `observedGeneration` is the generation the reconciler acted on, and the other
 * conditions are kept as they are.
 */
export function setCondition(
  existing: readonly Condition[] | undefined,
  wanted: WantedCondition,
  generation: number | undefined,
  now: string,
): ConditionUpdate {
  const current = (existing ?? []).find((condition) => condition.type === wanted.type);
  const lastTransitionTime = current?.status === wanted.status ? (current.lastTransitionTime ?? now) : now;
  const next: Condition = { ...wanted, lastTransitionTime, ...(generation === undefined ? {} : { observedGeneration: generation }) };
  const changed = !current || (['status', 'reason', 'message', 'observedGeneration'] as const).some((field) => current[field] !== next[field]);
  const transition = !current || current.status !== next.status || current.reason !== next.reason;
  const others = (existing ?? []).filter((condition) => condition.type !== wanted.type);
  return { conditions: [...others, next], changed, transition };
}
