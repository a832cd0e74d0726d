import { z } from 'zod';
import { route, type RouteSpec } from '../types.js';
import { principalOf } from '../request-state.js';
import { safetyReport } from '../schemas/api-schemas.js';
import type { Pilot } from '../../agent/pilot.js';
import type { SafetyAnalyzer } from '../../tools/safety/index.js';

/** What this module uses of the composed services (src/app/compose.ts hands it exactly these). */
export interface ToolRouteDeps {
  pilot: Pilot;
  safety: SafetyAnalyzer;
}

const approveBody = z.object({ id: z.string().min(1).max(200), approved: z.boolean() }).meta({ id: 'ToolApprovalBody' });
const analyzeBody = z
  .object({
    command: z.string().max(64 * 1024),
    /** `bash` (default: a shell line), `kubectl`/`helm` (the arguments after the program), `read_file`, `write_file`. */
    tool: z.string().min(1).max(200).default('bash'),
  })
  .meta({ id: 'ToolAnalyzeBody' });

/**
 * Tool call approvals and the command analyzer (docs/user-guide/ai-pilot.md). Approve: only the chat session's owner or
 * an admin decides (anyone else: NOT_FOUND); audited `approve`/`reject` by the waiting turn. Analyze: any role, runs nothing.
 */
export function toolRoutes(deps: ToolRouteDeps): RouteSpec[] {
  return [
    route({
      method: 'POST',
      path: '/api/tool/approve',
      permission: 'authenticated',
      summary:
        'Approve or reject a tool call waiting in a chat turn (unknown id 404, already decided 400; 409 when the replica running the turn has stopped: it never runs)',
      body: approveBody,
      response: z.object({ id: z.string(), approved: z.boolean(), status: z.enum(['approved', 'rejected']) }).meta({ id: 'ToolDecision' }),
      errors: [404, 409],
      handler: async (context, { body }) => {
        // The decision's audit row (approve/reject, `tool/<name>`, the command) is recorded where the call waits
        // (src/agent/tool-step.ts), in the same shape as a timeout's, with who decided.
        await deps.pilot.approvals.decide(principalOf(context), body.id, body.approved);
        context.body = { id: body.id, approved: body.approved, status: body.approved ? 'approved' : 'rejected' };
      },
    }),
    route({
      method: 'POST',
      path: '/api/tool/analyze',
      permission: 'authenticated',
      summary: 'Safety report of a command line (class, approval, blocked with its pattern or refusal, warnings); never runs it',
      body: analyzeBody,
      response: safetyReport,
      handler: async (context, { body }) => {
        context.body = deps.safety.analyzeSync(body.tool, body.command);
      },
    }),
  ];
}
