import { ClusterOverviewGenerator } from './overview/cluster-overview.js';
import { SecurityAssessmentGenerator } from './assessment/security-assessment.js';
import type { ReportGenerator } from './document/document.js';
import type { GeneratorDeps } from './context/generator-deps.js';

/** One generator per report type (cluster-overview, security-assessment). */
export function createGenerators(deps: GeneratorDeps): ReportGenerator[] {
  return [new ClusterOverviewGenerator(deps), new SecurityAssessmentGenerator(deps)];
}
