import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import type { RestClient } from '../kube/rest-client.js';

const policyPath = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const bindingPath = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';

/** The policy's (and its binding's) name for the Pilothouse namespace `namespace`. */
export function reportAdmissionName(namespace: string): string {
  return `pilothouse-report-requester-${namespace}`.slice(0, 253);
}

/** CEL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/**
 * A ValidatingAdmissionPolicy and its binding (docs/adr/0021): in the Pilothouse namespace, a
 * Report, an AccessRequest or an Investigation (issue 37) created by anyone but Pilothouse itself (`serviceUser`, which sets it
 * for the users it acts for) must name its creator as `spec.requester` and may not carry the
 * requester-role annotations Pilothouse records; an update may change neither `spec.requester`
 * nor those annotations. (The Report CRD keeps its whole `spec` immutable.)
 */
export function reportAdmissionManifests(namespace: string, serviceUser: string): [Record<string, unknown>, Record<string, unknown>] {
  const name = reportAdmissionName(namespace);
  const labels = { 'app.kubernetes.io/part-of': 'pilothouse' };
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name, labels },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
        resourceRules: [
          { apiGroups: ['pilothouse.dev'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['reports', 'accessrequests', 'investigations'] },
        ],
      },
      matchConditions: [{ name: 'not-pilothouse', expression: `request.userInfo.username != ${literal(serviceUser)}` }],
      variables: [
        {
          name: 'recorded',
          expression:
            "has(object.metadata.annotations) ? object.metadata.annotations.filter(k, k.startsWith('pilothouse.dev/requester-')).map(k, k + '=' + object.metadata.annotations[k]) : []",
        },
        {
          name: 'previouslyRecorded',
          expression:
            "oldObject != null && has(oldObject.metadata.annotations) ? oldObject.metadata.annotations.filter(k, k.startsWith('pilothouse.dev/requester-')).map(k, k + '=' + oldObject.metadata.annotations[k]) : []",
        },
      ],
      validations: [
        {
          expression: "request.operation != 'CREATE' || (has(object.spec.requester) && object.spec.requester == request.userInfo.username)",
          messageExpression: "'spec.requester must be the creating user (' + request.userInfo.username + ')'",
          reason: 'Forbidden',
        },
        {
          expression: "request.operation != 'UPDATE' || object.spec.requester == oldObject.spec.requester",
          message: 'spec.requester cannot be changed',
          reason: 'Forbidden',
        },
        {
          expression: 'variables.recorded == variables.previouslyRecorded',
          message: 'the pilothouse.dev/requester-* annotations are set by Pilothouse only',
          reason: 'Forbidden',
        },
      ],
    },
  };
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name, labels },
    spec: {
      policyName: name,
      validationActions: ['Deny'],
      matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } },
    },
  };
  return [policy, binding];
}

/** The user name the service's own credentials authenticate as (SelfSubjectReview). */
export async function ownUsername(rest: RestClient): Promise<string> {
  const review = await rest.json<{ status?: { userInfo?: { username?: string } } }>('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  const username = review.status?.userInfo?.username;
  if (!username) throw new AppError('K8S_ERROR', 'the API server did not say who Pilothouse is (SelfSubjectReview)', {});
  return username;
}

/**
 * Installs the requester policy with server-side apply when the service may (like the CRDs);
 * otherwise checks it is there (the Helm chart installs it) and warns when it is not.
 */
export async function ensureReportAdmission(rest: RestClient, namespace: string, logger: Logger): Promise<boolean> {
  const name = reportAdmissionName(namespace);
  try {
    const [policy, binding] = reportAdmissionManifests(namespace, await ownUsername(rest));
    for (const [path, body] of [
      [policyPath, policy],
      [bindingPath, binding],
    ] as const) {
      await rest.json('PATCH', `${path}/${name}`, { body, contentType: 'application/apply-patch+yaml', query: { fieldManager: 'pilothouse', force: true } });
    }
    logger.info({ policy: name }, 'requester admission policy installed (Reports and AccessRequests)');
    return true;
  } catch (error) {
    // FORBIDDEN: the chart installs it; NOT_FOUND: the API server has no ValidatingAdmissionPolicy (before 1.30).
    if (!(error instanceof AppError && (error.code === 'FORBIDDEN' || error.code === 'NOT_FOUND'))) throw error;
  }
  try {
    await rest.json('GET', `${policyPath}/${name}`);
    return true;
  } catch {
    logger.warn(
      { policy: name },
      'Pilothouse may not install the admission policy that ties spec.requester of a Report or an AccessRequest to its creator; install the Helm chart (or apply it as a cluster admin). Until then Reports and AccessRequests created with kubectl are not checked.',
    );
    return false;
  }
}
