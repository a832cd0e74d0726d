import { namespaceOf, sameNamespace, type Analysis, type AnalysisContext, type Analyzer } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import { refOf } from '../object-store.js';
import type { KubeThing } from '../shapes.js';
import type { ServiceShape } from './service-pods.js';

interface Backend {
  service?: { name?: string; port?: { number?: number; name?: string } };
}

interface IngressShape extends KubeThing {
  spec?: {
    ingressClassName?: string;
    defaultBackend?: Backend;
    rules?: Array<{ http?: { paths?: Array<{ backend?: Backend }> } }>;
    tls?: Array<{ secretName?: string }>;
  };
}

const hint = 'kubectl get ingressclasses';

function classFindings(ingress: IngressShape, context: AnalysisContext): FindingDraft[] {
  if (!context.objects.watching('IngressClass')) return [];
  const className = ingress.spec?.ingressClassName ?? ingress.metadata?.annotations?.['kubernetes.io/ingress.class'];
  if (className) {
    if (context.objects.get('IngressClass', undefined, className)) return [];
    return [
      {
        severity: 'warning',
        reason: 'IngressClassMissing',
        message: `The ingress class "${className}" does not exist`,
        evidence: [`spec.ingressClassName: ${className}`],
        hint,
      },
    ];
  }
  const isDefault = (entry: KubeThing): boolean => entry.metadata?.annotations?.['ingressclass.kubernetes.io/is-default-class'] === 'true';
  if (context.objects.list('IngressClass').some(isDefault)) return [];
  const message = 'The Ingress names no class and the cluster has no default one: no controller serves it';
  return [{ severity: 'warning', reason: 'NoIngressClass', message, evidence: ['spec.ingressClassName: (none)'], hint }];
}

function portFinding(name: string, port: { number?: number; name?: string }, service: ServiceShape): FindingDraft | undefined {
  const ports = service.spec?.ports ?? [];
  const found = ports.some((entry) => (port.number !== undefined ? entry.port === port.number : entry.name === port.name));
  if (found) return undefined;
  const wanted = String(port.number ?? port.name);
  const known = ports.map((entry) => entry.name ?? entry.port).join(', ');
  const evidence = [`backend.service.port: ${wanted}`, `service ${name} ports: ${known}`];
  return {
    severity: 'warning',
    reason: 'BackendPortMissing',
    part: `${name}:${wanted}`,
    message: `The Service "${name}" has no port ${wanted}`,
    evidence,
    hint: `kubectl get service ${name} -o yaml`,
  };
}

function backendFinding(backend: Backend | undefined, namespace: string, context: AnalysisContext): FindingDraft | undefined {
  const name = backend?.service?.name;
  if (!name) return undefined;
  const service = context.objects.get('Service', namespace, name) as ServiceShape | undefined;
  if (!service) {
    const message = `The backend Service "${name}" does not exist`;
    return {
      severity: 'warning',
      reason: 'BackendServiceMissing',
      part: name,
      message,
      evidence: [`backend.service.name: ${name}`],
      hint: `kubectl get services -n ${namespace}`,
    };
  }
  const port = backend.service?.port;
  return port ? portFinding(name, port, service) : undefined;
}

function tlsFindings(ingress: IngressShape, context: AnalysisContext): FindingDraft[] {
  if (!context.objects.watching('Secret')) return [];
  const namespace = namespaceOf(ingress);
  const missing = (ingress.spec?.tls ?? [])
    .map((tls) => tls.secretName)
    .filter((name): name is string => !!name && !context.objects.get('Secret', namespace, name));
  return [...new Set(missing)].map((name) => ({
    severity: 'warning',
    reason: 'TlsSecretMissing',
    part: name,
    message: `The TLS Secret "${name}" does not exist (or is not of type kubernetes.io/tls)`,
    evidence: [`spec.tls[].secretName: ${name}`],
    hint: `kubectl get secret ${name} -n ${namespace}`,
  }));
}

function analyzeIngress(ingress: IngressShape, context: AnalysisContext): Analysis {
  const namespace = namespaceOf(ingress);
  const paths = (ingress.spec?.rules ?? []).flatMap((rule) => rule.http?.paths ?? []);
  const backends = [ingress.spec?.defaultBackend, ...paths.map((path) => path.backend)];
  const byPart = new Map<string, FindingDraft>();
  for (const backend of backends) {
    const finding = backendFinding(backend, namespace, context);
    if (finding) byPart.set(finding.part ?? '', finding);
  }
  return { findings: [...classFindings(ingress, context), ...byPart.values(), ...tlsFindings(ingress, context)] };
}

/** Ingresses: no or a missing class, a backend Service or port that does not exist, a missing TLS Secret. */
export const ingressAnalyzer: Analyzer = {
  name: 'ingress',
  kind: 'Ingress',
  analyze: (object, context) => analyzeIngress(object as IngressShape, context),
  dependents: {
    Service: sameNamespace('Ingress'),
    Secret: sameNamespace('Ingress'),
    IngressClass: (_changed, objects) => objects.list('Ingress').map(refOf),
  },
};
