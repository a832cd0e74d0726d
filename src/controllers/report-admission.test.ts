import { execFileSync } from 'node:child_process';
import * as yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { rootDirectory, toolPath } from '../../test/helpers/paths.js';
import { reportAdmissionManifests } from './report-admission.js';

interface Manifest {
  kind: string;
  metadata: { name: string };
  spec: unknown;
}

describe('the report requester admission policy', () => {
  it('is the same in the Helm chart as the one Pilothouse installs itself', () => {
    const rendered = execFileSync(toolPath('helm'), ['template', 'pilothouse', `${rootDirectory}/charts/pilothouse`, '--namespace', 'ops'], {
      encoding: 'utf8',
    });
    const fromChart = (yaml.loadAll(rendered) as Array<Manifest | null>).filter((document): document is Manifest =>
      Boolean(document?.kind.startsWith('ValidatingAdmissionPolicy')),
    );
    const installed = reportAdmissionManifests('ops', 'system:serviceaccount:ops:pilothouse') as unknown as Manifest[];
    expect(fromChart.map((document) => [document.kind, document.metadata.name, document.spec])).toEqual(
      installed.map((document) => [document.kind, document.metadata.name, document.spec]),
    );
  });
});
