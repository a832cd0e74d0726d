import { describe, expect, it } from 'vitest';
import { parseAdmissionWarnings, warningTexts } from './admission-warnings.js';

describe('PodSecurity admission warnings', () => {
  it('splits Warning headers joined by commas, keeping commas and quotes inside the texts', () => {
    const header =
      '299 - "existing pods in namespace \\"shop\\" violate the new PodSecurity enforce level \\"restricted:latest\\"", 299 - "web-1 (and 2 other pods): allowPrivilegeEscalation != false, runAsNonRoot != true"';
    expect(warningTexts(header)).toEqual([
      'existing pods in namespace "shop" violate the new PodSecurity enforce level "restricted:latest"',
      'web-1 (and 2 other pods): allowPrivilegeEscalation != false, runAsNonRoot != true',
    ]);
    expect(warningTexts(null)).toEqual([]);
  });

  it('reads the pods, how many others share the violations, and keeps other warnings as notes', () => {
    const parsed = parseAdmissionWarnings([
      'existing pods in namespace "shop" violate the new PodSecurity enforce level "baseline:latest"',
      'privileged: privileged',
      'web-1 (and 1 other pod): hostPath volumes "data"',
      'new PodSecurity enforce level only checked against the first 1000 of 1500 existing pods',
    ]);
    expect(parsed.violations).toEqual([
      { pod: 'privileged', others: 0, violations: 'privileged' },
      { pod: 'web-1', others: 1, violations: 'hostPath volumes "data"' },
    ]);
    expect(parsed.notes).toEqual(['new PodSecurity enforce level only checked against the first 1000 of 1500 existing pods']);
  });
});
