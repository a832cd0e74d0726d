import type { Analyzer } from '../analyzer.js';
import { argoApplicationAnalyzer } from './argocd-application.js';
import { autoscalerAnalyzer } from './autoscaler.js';
import { cronJobAnalyzer } from './cron-job.js';
import { daemonSetAnalyzer } from './daemon-set.js';
import { deploymentAnalyzer } from './deployment.js';
import { disruptionBudgetAnalyzer } from './disruption-budget.js';
import { fluxHelmReleaseAnalyzer } from './flux-helm-release.js';
import { fluxKustomizationAnalyzer } from './flux-kustomization.js';
import { ingressAnalyzer } from './ingress.js';
import { jobAnalyzer } from './job.js';
import { networkPolicyAnalyzer } from './network-policy.js';
import { nodeAnalyzer } from './node.js';
import { accessRequestAnalyzer, mcpServerAnalyzer, reportAnalyzer } from './pilothouse-objects.js';
import { podAnalyzer } from './pod.js';
import { replicaSetAnalyzer } from './replica-set.js';
import { resourceQuotaAnalyzer } from './resource-quota.js';
import { serviceAnalyzer } from './service.js';
import { statefulSetAnalyzer } from './stateful-set.js';
import { tlsSecretAnalyzer } from './tls-secret.js';
import { volumeClaimAnalyzer } from './volume-claim.js';
import { volumeAnalyzer } from './volume.js';
import { mutatingWebhookAnalyzer, validatingWebhookAnalyzer } from './webhook.js';

/** Every analyzer, by the name `problems.analyzers.<name>` configures (docs/user-guide/problems.md). */
export const allAnalyzers: Analyzer[] = [
  podAnalyzer,
  deploymentAnalyzer,
  replicaSetAnalyzer,
  statefulSetAnalyzer,
  daemonSetAnalyzer,
  jobAnalyzer,
  cronJobAnalyzer,
  serviceAnalyzer,
  ingressAnalyzer,
  volumeClaimAnalyzer,
  volumeAnalyzer,
  nodeAnalyzer,
  autoscalerAnalyzer,
  disruptionBudgetAnalyzer,
  networkPolicyAnalyzer,
  validatingWebhookAnalyzer,
  mutatingWebhookAnalyzer,
  resourceQuotaAnalyzer,
  tlsSecretAnalyzer,
  accessRequestAnalyzer,
  reportAnalyzer,
  mcpServerAnalyzer,
  argoApplicationAnalyzer,
  fluxKustomizationAnalyzer,
  fluxHelmReleaseAnalyzer,
];
