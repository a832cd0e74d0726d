import { z } from 'zod';
import { inputSchemaOf, parseInput } from '../tools/builtin/tool-input.js';
import type { Tool, ToolResult } from '../tools/types.js';

/** What the model concludes with (`conclude` tool input). */
export const conclusionSchema = z.object({
  summary: z.string().min(1).max(8000).describe('What is going on, in a few sentences'),
  findings: z
    .array(
      z.object({
        title: z.string().min(1).max(300).describe('One line naming the finding'),
        detail: z.string().max(4000).optional().describe('What it means'),
        evidence: z.string().max(4000).optional().describe('What you read that shows it: command output, an event, a log line'),
      }),
    )
    .max(30)
    .default([]),
  suggestedActions: z
    .array(
      z.object({
        command: z.string().min(1).max(2000).describe('A kubectl command line a person may approve; it is not run by you'),
        rationale: z.string().max(2000).optional().describe('Why it would help'),
      }),
    )
    .max(10)
    .default([]),
});
export type Conclusion = z.infer<typeof conclusionSchema>;

/** Receives the conclusion of one run. */
export interface ConclusionSink {
  conclusion?: Conclusion;
}

/**
 * The `conclude` tool of one investigation run: the model ends the investigation by calling it with its
 * summary, findings (with evidence) and suggested commands; it runs nothing and stores the conclusion.
 */
export function createConcludeTool(sink: ConclusionSink): Tool {
  return {
    definition: {
      name: 'conclude',
      description:
        'End the investigation with a summary, findings with their evidence, and suggested kubectl commands (never run by you: a person may approve one). Call it exactly once, last.',
      inputSchema: inputSchemaOf(conclusionSchema),
      type: 'pilothouse',
      readOnly: true,
      destructive: false,
    },
    commandLine: () => 'conclude',
    run: async (args): Promise<ToolResult> => {
      const input = parseInput(conclusionSchema, args);
      if (!input.ok) return input.result;
      sink.conclusion = input.value;
      return { output: 'Concluded; the investigation ends here.', isError: false };
    },
  };
}
