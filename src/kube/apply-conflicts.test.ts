import { describe, expect, it } from 'vitest';
import { conflictsOf, managerOf } from './apply-conflicts.js';
import { mapKubeError } from './errors.js';

const status = {
  kind: 'Status',
  status: 'Failure',
  reason: 'Conflict',
  code: 409,
  message: 'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas',
  details: {
    causes: [
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using apps/v1', field: '.spec.replicas' },
      { reason: 'FieldValueInvalid', message: 'other', field: '.x' },
    ],
  },
};

describe('apply conflicts', () => {
  it('names the manager of a conflict message', () => {
    expect(managerOf('conflict with "kubectl-client-side-apply" using v1')).toBe('kubectl-client-side-apply');
    expect(managerOf('something else')).toBe('');
  });

  it('lists the field manager conflicts of a 409 Status', () => {
    expect(conflictsOf(status)).toEqual([{ field: '.spec.replicas', manager: 'kubectl-edit', message: 'conflict with "kubectl-edit" using apps/v1' }]);
    expect(conflictsOf({})).toEqual([]);
  });

  it('keeps the conflicts in the mapped error details', () => {
    const error = mapKubeError(409, status, 'deployments/web');
    expect(error.code).toBe('CONFLICT');
    expect(error.details).toMatchObject({ status: 409, reason: 'conflict', kubeReason: 'Conflict' });
    expect(error.details.conflicts).toHaveLength(1);
  });

  it('maps every 409 to CONFLICT, not only apply conflicts', () => {
    const exists = { kind: 'Status', reason: 'AlreadyExists', code: 409, message: 'configmaps "x" already exists' };
    const error = mapKubeError(409, exists, 'configmaps/x');
    expect(error.code).toBe('CONFLICT');
    expect(error.details).toMatchObject({ reason: 'conflict', kubeReason: 'AlreadyExists', conflicts: [] });
  });
});
