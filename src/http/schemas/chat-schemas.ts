import { z } from 'zod';
import { anyObject, commandClass } from './api-schemas.js';

/** Shapes of the chat API: stored sessions and messages, and the SSE events of a turn. */

export const toolStatus = z.enum(['executed', 'rejected', 'timeout', 'blocked', 'forbidden', 'error']).meta({ id: 'ToolStatus' });
export const turnEndReason = z.enum(['final_answer', 'step_cap', 'error', 'cancelled']).meta({ id: 'TurnEndReason' });

export const chatSessionSummary = z
  .object({ id: z.string(), title: z.string(), createdAt: z.string(), updatedAt: z.string() })
  .catchall(z.unknown())
  .meta({ id: 'ChatSessionSummary' });

/** The access request (`POST /api/access-requests`) that would lift a tool call's `approval_required` refusals. */
export const accessNeeded = z
  .object({
    permission: z.enum(['execute_write', 'delete']),
    namespaces: z.array(z.string()).meta({ description: 'Empty: all namespaces (a cluster-scoped resource)' }),
    resources: z.array(z.string()),
  })
  .meta({
    id: 'AccessNeeded',
    description: 'Set when the policy refused a request of the call with approval_required: the scope of the access request that lets it pass',
  });

/** An object a tool call names that a GitOps controller manages (packages/wire/managed-by.ts reads the marks). */
export const managedObject = z
  .object({
    object: z.object({ kind: z.string(), namespace: z.string().optional(), name: z.string() }),
    manager: z.object({
      controller: z.enum(['Argo CD', 'Flux']),
      kind: z.enum(['Application', 'Kustomization', 'HelmRelease']),
      name: z.string(),
      namespace: z.string().optional(),
    }),
    note: z.string().meta({ description: 'For the approval card: a manual change to the object will be reverted by its controller' }),
  })
  .meta({ id: 'ManagedObject' });

const managedObjects = z.array(managedObject).optional().meta({
  description: 'The objects the call names that Argo CD or Flux manages (a manual change to them will be reverted); only on calls that wait for approval',
});

export const toolCallView = z
  .object({
    id: z.string(),
    tool: z.string(),
    arguments: anyObject,
    command: z.string().optional(),
    type: commandClass.optional(),
    requiresApproval: z.boolean().optional(),
    blocked: z.boolean().optional(),
    warnings: z.array(z.string()).optional(),
    cluster: z.string().optional().meta({ description: 'The cluster a kubectl or bash call targeted (ADR 0035)' }),
    managedBy: managedObjects,
    decision: z.enum(['approved', 'rejected', 'timeout', 'cancelled']).optional(),
    decidedBy: z.string().optional(),
    status: toolStatus.optional(),
    result: z.string().optional(),
    accessNeeded: accessNeeded.optional(),
  })
  .meta({ id: 'ToolCallView' });

/** The tokens and cost of one model call (config `llm.prices`; 0 for a model without a price). */
export const callUsage = z
  .object({
    provider: z.string(),
    model: z.string(),
    inputTokens: z.number().int().meta({ description: 'The whole prompt, the cached part included' }),
    outputTokens: z.number().int(),
    cachedInputTokens: z.number().int(),
    cost: z.number(),
  })
  .meta({ id: 'CallUsage' });

/** The tokens and cost of a whole turn (every model call of it). */
export const turnUsage = z
  .object({ inputTokens: z.number().int(), outputTokens: z.number().int(), cachedInputTokens: z.number().int(), cost: z.number() })
  .meta({ id: 'TurnUsage' });

export const messageView = z
  .discriminatedUnion('role', [
    z.object({
      role: z.literal('user'),
      content: z.string(),
      context: z.object({
        namespace: z.string().optional(),
        resource: z.string().optional(),
        cluster: z.string().optional().meta({ description: "The chat's cluster when the message was sent (absent: the home cluster)" }),
      }),
      createdAt: z.string(),
    }),
    z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCallView), usage: callUsage.optional(), createdAt: z.string() }),
    z.object({
      role: z.literal('turn_end'),
      reason: turnEndReason,
      error: z.object({ code: z.string(), message: z.string() }).optional(),
      createdAt: z.string(),
    }),
  ])
  .meta({ id: 'MessageView' });

export const chatHistory = z.object({ session: chatSessionSummary, messages: z.array(messageView) }).meta({ id: 'ChatHistory' });

/** SSE events of `POST /api/chat/agentic` (the contract's four plus session and error). */
export const chatEvents = {
  session: z.object({ session_id: z.string() }).meta({ id: 'ChatSessionEvent' }),
  chunk: z.object({ content: z.string() }).meta({ id: 'ChatChunkEvent' }),
  tool_request: z
    .object({
      tool: z.string(),
      command: z.string(),
      id: z.string(),
      type: commandClass.optional(),
      requiresApproval: z.boolean().optional(),
      blocked: z.boolean().optional(),
      warnings: z.array(z.string()).optional(),
      cluster: z.string().optional().meta({
        description: "The cluster a kubectl or bash call runs on (its policy proxy decides with that cluster's rules); absent for tools that reach no cluster",
      }),
      managedBy: managedObjects,
      approvalTimeoutSeconds: z.number().int().positive().optional().meta({
        description: 'For a call that waits for approval: the seconds left before it is rejected as timed out (authorization.tool_approval.timeout)',
      }),
    })
    .catchall(z.unknown())
    .meta({ id: 'ToolRequestEvent' }),
  tool_execution: z
    .object({ id: z.string(), result: z.string(), status: toolStatus.optional(), accessNeeded: accessNeeded.optional() })
    .catchall(z.unknown())
    .meta({ id: 'ToolExecutionEvent' }),
  error: z
    .object({ error: z.string(), code: z.string(), details: z.record(z.string(), z.unknown()).optional() })
    .catchall(z.unknown())
    .meta({ id: 'ChatErrorEvent' }),
  stream_end: z
    .object({ complete: z.boolean(), reason: turnEndReason.optional(), usage: turnUsage.optional() })
    .catchall(z.unknown())
    .meta({ id: 'StreamEndEvent' }),
};
