import { z } from 'zod';
import { severities } from '../../problems/finding.js';
import { namespaceSchema, queryBoolean, queryInteger } from './validate.js';

const objectRef = z
  .object({ kind: z.string(), namespace: z.string().optional(), name: z.string() })
  .meta({ id: 'ProblemObject', description: 'The object a finding is about (or its owner)' });

/** One finding of GET /api/problems (docs/user-guide/problems.md). */
export const finding = z
  .object({
    id: z.string().describe('Stable while the same analyzer finds the same reason on the same object'),
    cluster: z.string(),
    analyzer: z.string(),
    severity: z.enum(severities),
    object: objectRef,
    owner: objectRef.optional().describe('The owner people act on (the Deployment of a crashing pod)'),
    reason: z.string().describe('Short reason, e.g. CrashLoopBackOff'),
    message: z.string(),
    evidence: z.array(z.string()).describe('The status fields and Events the finding rests on, quoted'),
    since: z.string().describe('When the finding was first seen (RFC 3339)'),
    lastSeen: z.string().describe('When the finding was last confirmed (RFC 3339)'),
    hint: z.string().describe('A read-only next step, e.g. kubectl logs … --previous'),
    ignored: z.string().optional().describe('Why it is ignored (the pilothouse.dev/ignore-problems value or the problems.ignore rule); only with ignored=true'),
  })
  .meta({ id: 'Finding' });

export const severityCounts = z
  .object({ critical: z.number().int(), warning: z.number().int(), info: z.number().int() })
  .meta({ id: 'ProblemCounts', description: 'Findings by severity (of what the caller may see; ignored ones not counted)' });

/** GET /api/problems. */
export const problemPage = z
  .object({ items: z.array(finding), total: z.number().int(), counts: severityCounts, continue: z.string().optional() })
  .meta({ id: 'ProblemPage' });

const filters = {
  namespace: namespaceSchema.optional(),
  severity: z.enum(severities).optional(),
  kind: z
    .string()
    .max(63)
    .regex(/^[A-Za-z][A-Za-z0-9]*$/, 'must be a kind such as Pod or Deployment')
    .optional()
    .describe('The kind of the object (Pod, Deployment, …)'),
  name: z.string().max(253).optional().describe("The object's name (or its owner's)"),
  ignored: queryBoolean.optional().describe('Include ignored findings (marked with `ignored`)'),
};

export const problemsQuery = z.object({
  ...filters,
  limit: queryInteger.pipe(z.number().int().min(1).max(10_000)).optional().describe('Page size; the answer has `continue` when more items follow'),
  continue: z.string().max(512).optional().describe('The `continue` of the previous page'),
});
export const problemsWatchQuery = z.object(filters);

export const problemEvents = {
  snapshot: z.object({ items: z.array(finding), total: z.number().int(), counts: severityCounts, revision: z.string() }),
  added: z.object({ item: finding, revision: z.string() }),
  modified: z.object({ item: finding, revision: z.string() }),
  deleted: z.object({ item: finding, revision: z.string() }),
  error: z.object({ error: z.string(), code: z.string(), details: z.record(z.string(), z.unknown()) }),
};

export type ProblemFilters = z.output<typeof problemsWatchQuery>;
