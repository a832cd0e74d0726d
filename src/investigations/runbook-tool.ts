import { z } from 'zod';
import { inputSchemaOf, parseInput } from '../tools/builtin/tool-input.js';
import type { Tool, ToolResult } from '../tools/types.js';
import type { Runbooks } from './runbooks.js';

const runbookInput = z.object({
  action: z.enum(['list', 'read']).describe('list: every runbook (name, title, match); read: one runbook by name'),
  name: z.string().max(253).optional().describe('The runbook to read (its ConfigMap name)'),
});

/** The read-only `runbook` tool: lists and reads the runbook ConfigMaps (chats and investigations). */
export function createRunbookTool(runbooks: Pick<Runbooks, 'list'>): Tool {
  return {
    definition: {
      name: 'runbook',
      description: "List the team's runbooks (ConfigMaps labelled pilothouse.dev/runbook) or read one by name. Read-only.",
      inputSchema: inputSchemaOf(runbookInput),
      type: 'pilothouse',
      readOnly: true,
      destructive: false,
    },
    commandLine: (args) => `runbook ${String(args.action ?? '')} ${typeof args.name === 'string' ? args.name : ''}`.trim(),
    run: async (args): Promise<ToolResult> => {
      const input = parseInput(runbookInput, args);
      if (!input.ok) return input.result;
      const all = await runbooks.list().catch(() => undefined);
      if (!all) return { output: 'runbook tool: the runbooks could not be read', isError: true };
      if (input.value.action === 'list') {
        const lines = all.map((runbook) => `${runbook.name}: ${runbook.title}${runbook.match ? ` (match ${JSON.stringify(runbook.match)})` : ''}`);
        return { output: lines.length ? lines.join('\n') : 'no runbooks', isError: false };
      }
      const found = all.find((runbook) => runbook.name === input.value.name);
      return found
        ? { output: `# ${found.title}\n\n${found.body}`, isError: false }
        : { output: `runbook tool: no runbook named ${input.value.name ?? '(none)'}`, isError: true };
    },
  };
}
