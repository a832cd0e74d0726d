import type { GenerateInput, ReportDocument, ReportGenerator } from '../document/document.js';
import type { GeneratorDeps } from '../context/generator-deps.js';
import { generateSections, type SectionStep } from '../context/report-context.js';
import { refs } from '../document/resource-refs.js';
import { complianceCheck } from './compliance-check.js';
import { networkPolicyAudit } from './network-policy-audit.js';
import { rbacReview } from './rbac-review.js';
import { scoreSections } from './security-scoring.js';
import { vulnerabilityAssessment } from './vulnerability-assessment.js';

const collections = [
  refs.namespaces,
  refs.pods,
  refs.serviceAccounts,
  refs.roles,
  refs.roleBindings,
  refs.clusterRoles,
  refs.clusterRoleBindings,
  refs.networkPolicies,
  refs.vulnerabilityReports,
];

const steps: SectionStep[] = [
  { id: 'rbac', title: 'RBAC review', build: rbacReview },
  { id: 'network-policies', title: 'Network policy audit', build: networkPolicyAudit },
  { id: 'vulnerabilities', title: 'Vulnerability assessment', build: vulnerabilityAssessment },
  { id: 'compliance', title: 'Compliance (Pod Security Standards, CIS)', build: complianceCheck },
];

/** The security assessment: RBAC review, network policy audit, vulnerability assessment, compliance; scored per section and overall. */
export class SecurityAssessmentGenerator implements ReportGenerator {
  readonly type = 'security-assessment' as const;

  constructor(private readonly deps: GeneratorDeps) {}

  generate(input: GenerateInput): Promise<ReportDocument> {
    return generateSections(this.deps, input, { type: this.type, title: 'Security assessment', collections, steps, score: scoreSections });
  }
}
