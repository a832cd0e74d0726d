import type { IncomingMessage } from 'node:http';
import type { PolicyDecision } from '../../rbac/policy.js';
import type { RequestAttributes } from '../../rbac/request-attributes.js';
import { carriesToken } from './proxy-token.js';
import type { RefusalLog } from './refusal-log.js';
import { isTargetRefusal, requestTarget, type RequestTarget } from './request-target.js';
import type { StatusAnswer } from './status.js';

/** Decides one request of a tool call: the policy, bound to the caller and the call's mode. */
export type Authorize = (attributes: RequestAttributes) => Promise<PolicyDecision>;

export type Admission = { admitted: true; target: RequestTarget } | { admitted: false; answer: StatusAnswer };

/** What admission needs of one proxy. */
export interface AdmissionContext {
  token: string;
  authorize: Authorize;
  refusals: RefusalLog;
}

const refused = (code: number, reason: StatusAnswer['reason'], message: string): Admission => ({ admitted: false, answer: { code, reason, message } });

/** The policy's answer, fail closed; an allowed list that must hide namespaces is refused (the proxy cannot filter). */
async function decisionFor(authorize: Authorize, attributes: RequestAttributes): Promise<PolicyDecision> {
  let decision: PolicyDecision;
  try {
    decision = await authorize(attributes);
  } catch {
    return { allowed: false, code: 'discovery_failed', reason: 'the policy could not decide this request; it was refused' };
  }
  const hidden = decision.hiddenNamespaces;
  if (!decision.allowed || !hidden || hidden.size === 0) return decision;
  const names = [...hidden].sort().join(', ');
  return {
    allowed: false,
    code: 'resource_role',
    reason: `${attributes.verb} ${attributes.resource} across all namespaces is refused: namespaces ${names} are closed to you; name a namespace (-n)`,
  };
}

/**
 * A PATCH whose body is a server-side apply (`Content-Type: application/apply-patch+yaml`, or any other
 * `apply-patch` type, however spelled or listed: fail closed) is marked `apply`, so the policy decides it as
 * `patch` and `create` of the object, as kube-apiserver authorizes an apply that creates it.
 */
function withApply(attributes: RequestAttributes, request: IncomingMessage): RequestAttributes {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  return attributes.verb === 'patch' && type.includes('apply-patch') ? { ...attributes, apply: true } : attributes;
}

/**
 * Admits one request: the one-time token (constant time), a canonical target, and the policy.
 * Refusals are logged for the tool result and answered as the API server would.
 */
export async function admit(request: IncomingMessage, context: AdmissionContext): Promise<Admission> {
  if (!carriesToken(request.headers, context.token)) return refused(401, 'Unauthorized', 'Unauthorized');
  const target = requestTarget(request.method ?? 'GET', request.url);
  if (isTargetRefusal(target)) {
    if (target.attributes) context.refusals.add(target.attributes, target.message);
    return refused(target.code, target.code === 400 ? 'BadRequest' : 'Forbidden', target.message);
  }
  const attributes = withApply(target.attributes, request);
  const decision = await decisionFor(context.authorize, attributes);
  if (decision.allowed) return { admitted: true, target };
  context.refusals.add(attributes, decision.reason, decision);
  return refused(403, 'Forbidden', decision.reason);
}
