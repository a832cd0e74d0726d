/** The contract's AI agent states. */
export const agentStates = ['Idle', 'Running', 'ToolAnalysis', 'WaitingForApproval', 'Done', 'Error'] as const;
export type AgentState = (typeof agentStates)[number];

/** What moves the agent from one state to the next. */
export type AgentTrigger =
  | 'user_message'
  | 'tool_calls_received'
  | 'final_response'
  | 'step_cap_reached'
  | 'tool_call_next'
  | 'tool_auto_run'
  | 'tool_refused'
  | 'approval_needed'
  | 'approved'
  | 'rejected'
  | 'approval_timed_out'
  | 'failed'
  | 'turn_complete';

/**
 * The transition table (docs/adr/0006-agent-loop-from-history.md). Where the contract leaves the next state open:
 * after a decision (approved, rejected, timed out) the loop is back in `Running`; a refusal
 * without asking (blocked, forbidden, tool not found) also returns to `Running`; failures and
 * cancellation (client gone) enter `Error`, which returns to `Idle` like `Done`.
 */
const transitions: Record<AgentState, Partial<Record<AgentTrigger, AgentState>>> = {
  Idle: { user_message: 'Running' },
  Running: {
    tool_calls_received: 'ToolAnalysis',
    tool_call_next: 'ToolAnalysis',
    final_response: 'Done',
    step_cap_reached: 'Done',
    failed: 'Error',
  },
  ToolAnalysis: { tool_auto_run: 'Running', tool_refused: 'Running', approval_needed: 'WaitingForApproval', failed: 'Error' },
  WaitingForApproval: { approved: 'Running', rejected: 'Running', approval_timed_out: 'Running', failed: 'Error' },
  Done: { turn_complete: 'Idle' },
  Error: { turn_complete: 'Idle' },
};

/** Thrown for a transition the table does not allow: a bug in the loop, never a user error. */
export class InvalidTransitionError extends Error {
  constructor(state: AgentState, trigger: AgentTrigger) {
    super(`agent: no transition from ${state} on ${trigger}`);
    this.name = 'InvalidTransitionError';
  }
}

/** The next state for a trigger, or undefined when the table has none. */
export function nextState(state: AgentState, trigger: AgentTrigger): AgentState | undefined {
  return transitions[state][trigger];
}

/** One agent's explicit state machine; every change goes through {@link fire}. */
export class AgentStateMachine {
  private current: AgentState = 'Idle';
  private readonly trail: AgentState[] = ['Idle'];

  constructor(private readonly onChange?: (from: AgentState, to: AgentState, trigger: AgentTrigger) => void) {}

  get state(): AgentState {
    return this.current;
  }

  /** States visited, in order (tests and logs). */
  get visited(): readonly AgentState[] {
    return this.trail;
  }

  /** Applies a trigger; throws InvalidTransitionError when the table has no such transition. */
  fire(trigger: AgentTrigger): AgentState {
    const to = nextState(this.current, trigger);
    if (!to) throw new InvalidTransitionError(this.current, trigger);
    const from = this.current;
    this.current = to;
    this.trail.push(to);
    this.onChange?.(from, to, trigger);
    return to;
  }

  /** Enters `Error` from any working state (failure or cancellation); a no-op when already finished. */
  fail(): void {
    if (this.current === 'Running' || this.current === 'ToolAnalysis' || this.current === 'WaitingForApproval') this.fire('failed');
  }
}
