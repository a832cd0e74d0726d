import { ClusterOverviewGenerator } from './cluster-overview.js';
import { SecurityAssessmentGenerator } from './security-assessment.js';
import type { ReportGenerator } from './document.js';
import type { GeneratorDeps } from './generator-deps.js';

/** One generator per report type (cluster-overview, security-assessment). */
export function createGenerators(deps: GeneratorDeps): ReportGenerator[] {
  return [new ClusterOverviewGenerator(deps), new SecurityAssessmentGenerator(deps)];
}
