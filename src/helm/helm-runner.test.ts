import { describe, expect, it } from 'vitest';
import { helmFailure, helmMissing } from './helm-runner.js';

describe("helm's errors as contract errors", () => {
  it('takes a chart reference helm cannot resolve as the caller input (400), with helm’s message', () => {
    const error = helmFailure('Error: non-absolute URLs should be in form of repo_name/path_to_chart, got: 0\n');
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details: { message: 'non-absolute URLs should be in form of repo_name/path_to_chart, got: 0' } });
  });

  it('keeps a chart a repository does not have, and an upgrade of no release, as 404', () => {
    expect(helmFailure('Error: chart "nope" not found in http://127.0.0.1:1 repository').code).toBe('NOT_FOUND');
    expect(helmFailure('Error: UPGRADE FAILED: "x" has no deployed releases').code).toBe('NOT_FOUND');
  });

  it('says how to fix a missing helm binary (503)', () => {
    expect(helmMissing()).toMatchObject({ code: 'UNAVAILABLE', message: 'helm is not installed (set `tools.helm` or install helm)' });
  });
});
