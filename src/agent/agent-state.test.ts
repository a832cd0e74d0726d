import { describe, expect, it } from 'vitest';
import { AgentStateMachine, InvalidTransitionError, nextState } from './agent-state.js';

describe('agent state machine', () => {
  it('follows the contract table for a turn with an approved tool call', () => {
    const machine = new AgentStateMachine();
    for (const trigger of ['user_message', 'tool_calls_received', 'approval_needed', 'approved', 'final_response', 'turn_complete'] as const)
      machine.fire(trigger);
    expect(machine.visited).toEqual(['Idle', 'Running', 'ToolAnalysis', 'WaitingForApproval', 'Running', 'Done', 'Idle']);
  });

  it('returns to Running after auto-run, refusal, rejection and timeout', () => {
    expect(nextState('ToolAnalysis', 'tool_auto_run')).toBe('Running');
    expect(nextState('ToolAnalysis', 'tool_refused')).toBe('Running');
    expect(nextState('WaitingForApproval', 'rejected')).toBe('Running');
    expect(nextState('WaitingForApproval', 'approval_timed_out')).toBe('Running');
    expect(nextState('Running', 'step_cap_reached')).toBe('Done');
  });

  it('refuses transitions the table does not have', () => {
    const machine = new AgentStateMachine();
    expect(() => machine.fire('approved')).toThrow(InvalidTransitionError);
    machine.fire('user_message');
    expect(() => machine.fire('turn_complete')).toThrow('no transition from Running on turn_complete');
  });

  it('enters Error from any working state and then Idle; fail() is a no-op when finished', () => {
    const machine = new AgentStateMachine();
    machine.fire('user_message');
    machine.fire('tool_calls_received');
    machine.fire('approval_needed');
    machine.fail();
    expect(machine.state).toBe('Error');
    machine.fail();
    machine.fire('turn_complete');
    expect(machine.state).toBe('Idle');
  });

  it('reports every change to the listener', () => {
    const changes: string[] = [];
    const machine = new AgentStateMachine((from, to, trigger) => changes.push(`${from}-${trigger}->${to}`));
    machine.fire('user_message');
    machine.fire('final_response');
    expect(changes).toEqual(['Idle-user_message->Running', 'Running-final_response->Done']);
  });
});
