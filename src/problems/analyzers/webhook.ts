import { nameOf, textOf, type Analysis, type AnalysisContext, type Analyzer } from '../analyzer.js';
import type { FindingDraft, ObjectRef } from '../finding.js';
import type { ObjectReader } from '../object-store.js';
import type { KubeThing, WebhookSpec } from '../shapes.js';
import { isReadyPod, selectedPods, type ServiceShape } from './service-pods.js';

/** How many ready pods serve a Service (undefined: the Service has no selector, its endpoints are managed by hand). */
function readyBehind(service: ServiceShape, namespace: string, context: AnalysisContext): number | undefined {
  const selector = service.spec?.selector ?? {};
  if (Object.keys(selector).length === 0) return undefined;
  return selectedPods(context.objects, namespace, selector).filter(isReadyPod).length;
}

function unreachable(webhook: WebhookSpec, service: ServiceShape | undefined, serviceText: string, configuration: string): FindingDraft {
  const name = textOf(webhook.name);
  const policy = webhook.failurePolicy ?? 'Fail';
  const fail = policy === 'Fail';
  const effect = fail ? 'every write it intercepts is refused' : 'its checks are skipped';
  const state = service ? 'has no ready endpoint' : 'does not exist';
  return {
    severity: fail ? 'critical' : 'warning',
    reason: service ? 'NoReadyEndpoint' : 'ServiceMissing',
    part: name,
    message: `Webhook ${name}: its Service ${serviceText} ${state}; with failurePolicy ${policy}, ${effect}`,
    evidence: [`webhooks[${name}].failurePolicy: ${policy}`, `webhooks[${name}].clientConfig.service: ${serviceText}`, 'ready endpoints: 0'],
    hint: `kubectl get pods,endpointslices -n ${serviceText.split('/')[0] ?? ''}; kubectl get ${configuration} -o yaml`,
  };
}

function webhookFinding(webhook: WebhookSpec, context: AnalysisContext, configuration: string): FindingDraft | undefined {
  const target = webhook.clientConfig?.service;
  if (!target?.name || !target.namespace) return undefined;
  const service = context.objects.get('Service', target.namespace, target.name) as ServiceShape | undefined;
  const ready = service ? readyBehind(service, target.namespace, context) : 0;
  if (ready === undefined || ready > 0) return undefined;
  return unreachable(webhook, service, `${target.namespace}/${target.name}`, configuration);
}

function usesNamespace(configuration: KubeThing, namespace: string | undefined): boolean {
  return (configuration.webhooks ?? []).some((webhook) => webhook.clientConfig?.service?.namespace === namespace);
}

/** The configurations of `kind` whose webhooks point into the changed object's namespace. */
function pointingInto(kind: string): (changed: KubeThing, objects: ObjectReader) => ObjectRef[] {
  return (changed, objects) =>
    objects
      .list(kind)
      .filter((configuration) => usesNamespace(configuration, changed.metadata?.namespace))
      .map((configuration) => ({ kind, name: nameOf(configuration) }));
}

function webhookAnalyzer(name: string, kind: string, resource: string): Analyzer {
  const analyze = (object: KubeThing, context: AnalysisContext): Analysis => ({
    findings: (object.webhooks ?? [])
      .map((webhook) => webhookFinding(webhook, context, `${resource} ${nameOf(object)}`))
      .filter((finding): finding is FindingDraft => finding !== undefined),
  });
  return { name, kind, analyze, dependents: { Service: pointingInto(kind), Pod: pointingInto(kind) } };
}

/** Validating admission webhooks whose Service has no ready endpoint (failurePolicy Fail: critical, Ignore: warning). */
export const validatingWebhookAnalyzer = webhookAnalyzer('validatingwebhook', 'ValidatingWebhookConfiguration', 'validatingwebhookconfiguration');
/** Mutating admission webhooks whose Service has no ready endpoint (failurePolicy Fail: critical, Ignore: warning). */
export const mutatingWebhookAnalyzer = webhookAnalyzer('mutatingwebhook', 'MutatingWebhookConfiguration', 'mutatingwebhookconfiguration');
