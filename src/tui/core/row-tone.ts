import type { Row } from '../api/types.js';

/** A row's colour, as k9s colours them: broken red, on its way (or held) yellow, finished grey, healthy plain. */
export type RowTone = 'red' | 'yellow' | 'gray' | undefined;

const broken =
  /^(CrashLoopBackOff|Error|Failed|ImagePullBackOff|ErrImagePull|InvalidImageName|ErrImageNeverPull|OOMKilled|Evicted|CreateContainerConfigError|CreateContainerError|RunContainerError|ContainerStatusUnknown|Unknown|NotReady|Lost|BackoffLimitExceeded|DeadlineExceeded)\b|Init:(Error|CrashLoopBackOff|ImagePullBackOff|ErrImagePull)/;
const waiting = /^(Pending|ContainerCreating|PodInitializing|Terminating|Init:|SchedulingDisabled|Ready,SchedulingDisabled|Released|Progressing|Unschedulable)/;
const finished = /^(Completed|Succeeded|Complete)$/;

/** The state a row names: its status column, else its phase or reason. */
function stateOf(row: Row): string {
  for (const key of ['status', 'phase', 'reason']) {
    const value = row[key];
    if (typeof value === 'string' && value) return value;
  }
  return '';
}

/** The colour of a row from the state it names (pods, nodes, jobs, claims, access requests…). */
export function rowTone(row: Row): RowTone {
  // A finding (the `:problems` view) is coloured by its severity.
  if (row.severity === 'critical') return 'red';
  if (row.severity === 'warning') return 'yellow';
  const state = stateOf(row);
  if (broken.test(state)) return 'red';
  if (waiting.test(state)) return 'yellow';
  if (finished.test(state)) return 'gray';
  return undefined;
}
