import { namespaceOf, nameOf, type Analysis, type Analyzer, type AnalysisContext } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import type { PodShape } from '../shapes.js';
import { isReadyPod, selectedPods, servicesSelecting, type ServiceShape } from './service-pods.js';

function exposes(pod: PodShape, portName: string): boolean {
  return (pod.spec?.containers ?? []).some((container) => (container.ports ?? []).some((port) => port.name === portName));
}

function missingNamedPorts(service: ServiceShape, pods: PodShape[]): string[] {
  const named = (service.spec?.ports ?? []).map((port) => port.targetPort).filter((port): port is string => typeof port === 'string');
  return named.filter((name) => !pods.some((pod) => exposes(pod, name)));
}

function endpointFinding(pods: PodShape[], selectorText: string, hint: string): FindingDraft | undefined {
  const evidence = [`spec.selector: ${selectorText}`, `matching pods: ${pods.length}, ready: ${pods.filter(isReadyPod).length}`];
  if (pods.length === 0)
    return {
      severity: 'warning',
      reason: 'NoPodsSelected',
      message: `The selector ${selectorText} matches no pod: the Service has no endpoints`,
      evidence,
      hint,
    };
  if (pods.some(isReadyPod)) return undefined;
  const message = `None of the ${pods.length} pods the selector matches is ready: the Service has no ready endpoints`;
  return { severity: 'warning', reason: 'NoReadyEndpoints', message, evidence, hint };
}

function analyzeService(service: ServiceShape, context: AnalysisContext): Analysis {
  const selector = service.spec?.selector ?? {};
  if (service.spec?.type === 'ExternalName' || Object.keys(selector).length === 0) return { findings: [] };
  const namespace = namespaceOf(service);
  const selectorText = Object.entries(selector)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
  const pods = selectedPods(context.objects, namespace, selector);
  const endpoints = endpointFinding(pods, selectorText, `kubectl get endpointslices -n ${namespace} -l kubernetes.io/service-name=${nameOf(service)}`);
  const missing = pods.length ? missingNamedPorts(service, pods) : [];
  const ports: FindingDraft[] = missing.map((name) => ({
    severity: 'warning',
    reason: 'TargetPortMissing',
    part: name,
    message: `No container of the selected pods exposes the target port "${name}"`,
    evidence: [`spec.ports[].targetPort: ${name}`],
    hint: `kubectl get pods -n ${namespace} -l ${selectorText} -o yaml`,
  }));
  return { findings: [...(endpoints ? [endpoints] : []), ...ports] };
}

/** Services with no endpoints: the selector matches no pod or no ready pod, or a named target port no container exposes. */
export const serviceAnalyzer: Analyzer = {
  name: 'service',
  kind: 'Service',
  analyze: (object, context) => analyzeService(object as ServiceShape, context),
  dependents: { Pod: servicesSelecting },
};
