import { z } from 'zod';

/** `problems.analyzers.<name>`: on or off, and the analyzer's thresholds (e.g. `restartThreshold: 10`). */
const analyzerSettingsSchema = z.object({ enabled: z.boolean().default(true) }).catchall(z.union([z.number(), z.boolean(), z.string()]));

/** `problems.ignore[]`: findings about objects in these namespaces and/or matching this label selector are not shown. */
const ignoreRuleSchema = z
  .object({
    namespaces: z.array(z.string().min(1)).optional(),
    selector: z.record(z.string(), z.string()).optional(),
  })
  .refine((rule) => rule.namespaces !== undefined || rule.selector !== undefined, 'an ignore rule names namespaces, a selector or both');

/** `problems`: the live diagnosis of every cluster (src/problems, docs/user-guide/problems.md). */
export const problemsSchema = z
  .object({
    enabled: z.boolean().default(true),
    analyzers: z.record(z.string(), analyzerSettingsSchema).default({}),
    ignore: z.array(ignoreRuleSchema).default([]),
  })
  .prefault({});

export type ProblemsConfig = z.infer<typeof problemsSchema>;
