import type { RoleName } from '../config/schema.js';
import type { ChatContext } from './history-entries.js';

export interface PromptInput {
  username: string;
  role: RoleName;
  context: ChatContext;
  /** Tool names offered in this turn. */
  tools: readonly string[];
  language: string;
  beginnerMode: boolean;
}

const languageNames: Record<string, string> = { en: 'English', ko: 'Korean', ja: 'Japanese', zh: 'Chinese' };

const roleRules: Record<RoleName, string> = {
  viewer:
    'The user has the role viewer: every tool call will be refused as forbidden. Do not call tools; answer from your knowledge and suggest commands the user could ask an operator to run.',
  user: 'The user has the role user: read-only commands run at once (or after approval), changes (apply, create, patch, scale, restart...) run only after the user approves, and dangerous commands (delete, drain, forced removal) are refused even if approved.',
  admin:
    'The user has the role admin: read-only commands run at once (or after approval); changes and dangerous commands, deletes included, run only after the user approves.',
};

function contextLines(context: ChatContext): string[] {
  const lines = [`Default namespace: ${context.namespace || 'default'} (use it when the user names no namespace).`];
  if (context.resource) lines.push(`The user is looking at ${context.resource}; "it" and "this" usually mean that resource.`);
  return lines;
}

/**
 * The system prompt of a turn: who asks, what they are looking at (namespace, focused resource),
 * which tools exist and the role's rules. Built fresh each turn, never stored.
 */
export function buildSystemPrompt(input: PromptInput): string {
  const lines = [
    'You are Pilothouse, an assistant that operates a Kubernetes cluster and asks before it acts.',
    `You are talking to ${input.username}.`,
    ...contextLines(input.context),
    input.tools.length ? `Tools: ${input.tools.join(', ')}. Prefer one small command per call.` : 'No tools are available.',
    roleRules[input.role],
    'Every command is safety-classified before it runs; blocked commands never run. A tool result starting with "Cancelled:", "Forbidden:" or "Blocked:" means nothing was run: do not retry the same command, explain and continue.',
    `Answer in ${languageNames[input.language] ?? input.language}.`,
  ];
  if (input.beginnerMode) lines.push('The user is a beginner: explain each command and its effect in plain words.');
  return lines.join('\n');
}
