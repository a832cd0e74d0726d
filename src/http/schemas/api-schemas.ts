import { z } from 'zod';
import { namespaceSchema, objectNameSchema } from './validate.js';

/** Schemas shared by several routes' declarations (request targets and common answers). */

export const workloadTarget = z.object({ namespace: namespaceSchema, name: objectNameSchema });
/** The body of a workload or node action that names only its target (restart, pause, resume). */
export const workloadTargetBody = workloadTarget.meta({ id: 'WorkloadTargetBody' });
/** The body of a scale action (deployments, statefulsets). */
export const scaleBody = workloadTarget.extend({ replicas: z.number().int().min(0).max(10_000) }).meta({ id: 'ScaleBody' });
export const nameParams = z.object({ name: objectNameSchema });
export const namespaceQuery = z.object({ namespace: namespaceSchema.optional() });

/** A string map of any shape (objects whose fields the contract does not fix). */
export const anyObject = z.record(z.string(), z.unknown());

/** What a cluster action changed: `{name, namespace?, before, after}`. */
export const changeReport = z.object({ name: z.string(), namespace: z.string().optional(), before: anyObject, after: anyObject }).meta({ id: 'ChangeReport' });

/** The name of a list's schema: `<Item>List` (`{items, total}`) or `<Item>Items` (`{items}`). */
const lists = new Map<string, z.ZodType>();
function namedList<T extends z.ZodType, L extends z.ZodType>(item: T, suffix: string, build: () => L): L {
  const id = z.globalRegistry.get(item)?.id;
  if (!id) throw new Error("a list's item needs a named schema (.meta({id})): the list is named after it");
  const key = `${id}${suffix}`;
  if (!lists.has(key)) lists.set(key, build().meta({ id: key }));
  return lists.get(key) as L;
}

/** `{items, total}` of a list, named `<Item>List` after its item's schema. */
/** The body of a {@link listOf} answer: the items and how many there are. */
export function listed<T>(items: readonly T[]): { items: readonly T[]; total: number } {
  return { items, total: items.length };
}

export function listOf<T extends z.ZodType>(item: T): z.ZodObject<{ items: z.ZodArray<T>; total: z.ZodNumber }> {
  return namedList(item, 'List', () => z.object({ items: z.array(item), total: z.number().int() }));
}

/** `{items}` of a list without a total, named `<Item>Items` after its item's schema. */
export function itemsOf<T extends z.ZodType>(item: T): z.ZodObject<{ items: z.ZodArray<T> }> {
  return namedList(item, 'Items', () => z.object({ items: z.array(item) }));
}

/** `{deleted: <name>}`: what a DELETE that removes one named thing answers. */
export const deleted = z.object({ deleted: z.string() }).meta({ id: 'Deleted' });

/** A Kubernetes object as the API server answers it (its fields are the API server's contract, not ours). */
export const kubernetesObject = anyObject.meta({ id: 'KubernetesObject' });

/** A resource list item (pods per the contract; other kinds add their own columns). */
export const resourceItem = z
  .object({ name: z.string(), namespace: z.string().optional(), age: z.string().optional() })
  .catchall(z.unknown())
  .meta({ id: 'ResourceItem' });

export const role = z.enum(['viewer', 'user', 'admin']).meta({ id: 'Role' });
export const language = z.enum(['en', 'ko', 'ja', 'zh']).meta({ id: 'Language' });
export const commandClass = z.enum(['read', 'write', 'dangerous', 'interactive', 'unknown']).meta({ id: 'CommandClass' });

/** `POST /api/auth/login`. */
export const session = z.object({ token: z.string(), expires_at: z.string(), username: z.string(), role }).meta({ id: 'Session' });
export const health = z.object({ status: z.string(), kubernetes: z.string(), llm: z.string() }).catchall(z.unknown()).meta({ id: 'Health' });

export const user = z
  .object({
    username: z.string(),
    role,
    email: z.string().nullable(),
    roles: z.array(z.string()),
    enabled: z.boolean(),
    locked: z.boolean(),
    source: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .catchall(z.unknown())
  .meta({ id: 'User' });

export const auditEntry = z
  .object({
    id: z.number().int(),
    timestamp: z.string(),
    user: z.string(),
    action: z.string(),
    resource: z.string(),
    details: anyObject,
    decision: z.enum(['allow', 'deny']),
    source: z.string().nullable(),
    requestId: z.string().nullable(),
    outcome: z.string().nullable(),
    /** The cluster the action was about (ADR 0035); absent for actions that touch no cluster (sign-in, settings). */
    cluster: z.string().optional(),
  })
  .meta({ id: 'AuditEntry' });

export const userSettings = z
  .object({
    language,
    beginner_mode: z.boolean(),
    auto_approve_readonly: z.boolean(),
    pilot_open: z.boolean().optional().meta({ description: "The web UI's AI pilot panel as the user last left it (absent: open)" }),
  })
  .meta({ id: 'UserSettings' });

export const safetyReport = z
  .object({
    command: z.string(),
    type: commandClass.meta({ description: 'What the command is (a blocked or refused command keeps its class: a refused `get` is `read`)' }),
    requiresApproval: z.boolean(),
    isDangerous: z.boolean(),
    isInteractive: z.boolean(),
    isReadOnly: z.boolean(),
    blocked: z.boolean().meta({ description: 'The command never runs, whatever its class and any approval (see blockedBy or refusal)' }),
    blockedBy: z.string().optional().meta({ description: 'The blocked pattern that matched' }),
    refusal: z.string().optional().meta({ description: 'Why the command is refused (a flag or command off the allowlist, a file outside the files root...)' }),
    warnings: z.array(z.string()),
  })
  .catchall(z.unknown())
  .meta({ id: 'SafetyReport' });

export const accessPhase = z.enum(['Pending', 'Approved', 'Denied', 'Expired']).meta({ id: 'AccessPhase' });
export const accessRequest = z
  .object({
    id: z.string(),
    requester: z.string(),
    permission: z.string(),
    namespaces: z.array(z.string()),
    resources: z.array(z.string()),
    /** The cluster the grant holds on (ADR 0035). */
    cluster: z.string(),
    reason: z.string().nullable().optional(),
    ttl: z.string(),
    phase: accessPhase,
    reviewer: z.string().nullable().optional(),
    reviewedAt: z.string().nullable().optional(),
    expiresAt: z.string().nullable().optional(),
    message: z.string().nullable().optional(),
    createdAt: z.string(),
  })
  .catchall(z.unknown())
  .meta({ id: 'AccessRequest' });
