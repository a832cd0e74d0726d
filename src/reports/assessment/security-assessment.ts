import type { GenerateInput, ReportDocument, ReportGenerator } from '../document/document.js';
import type { GeneratorDeps } from '../context/generator-deps.js';
import { documentOf, runSections, startReport, type SectionStep } from '../context/report-context.js';
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

  async generate(input: GenerateInput): Promise<ReportDocument> {
    input.progress(0, 'Checking what the requester may see');
    const context = await startReport(this.deps, input, collections);
    const { sections, overall } = scoreSections(await runSections(context, steps, 5));
    const scope = input.namespace ? `namespace ${input.namespace}` : 'the whole cluster';
    const document = await documentOf(context, this.type, `Security assessment of ${scope}`, sections);
    input.progress(100, 'Done');
    return overall === undefined ? document : { ...document, score: overall };
  }
}
