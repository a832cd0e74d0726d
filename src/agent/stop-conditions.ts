/** What the loop knows when it decides whether to ask the model again. */
export interface LoopProgress {
  /** Model calls made in this turn. */
  steps: number;
  /** Tool calls in the last model response. */
  lastToolCalls: number;
  /** The turn was cancelled (client gone). */
  cancelled: boolean;
}

/** A named stop predicate (after the Vercel AI SDK's `stopWhen`). */
export interface StopCondition {
  name: 'final_answer' | 'step_cap' | 'cancelled';
  holds(progress: LoopProgress): boolean;
}

/** The model answered without tool calls. */
export const finalAnswer: StopCondition = { name: 'final_answer', holds: (progress) => progress.steps > 0 && progress.lastToolCalls === 0 };

/** The turn used up its model calls (`authorization.max_steps`). */
export function stepCountIs(maxSteps: number): StopCondition {
  return { name: 'step_cap', holds: (progress) => progress.steps >= maxSteps };
}

/** The client went away. */
export const cancelled: StopCondition = { name: 'cancelled', holds: (progress) => progress.cancelled };

/** The first condition that holds, in the given order, or undefined to go on. */
export function firstStop(conditions: readonly StopCondition[], progress: LoopProgress): StopCondition['name'] | undefined {
  return conditions.find((condition) => condition.holds(progress))?.name;
}
