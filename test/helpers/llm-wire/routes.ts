import { anthropicDialect } from './anthropic-dialect.js';
import { bedrockDialect } from './bedrock-dialect.js';
import { geminiDialect } from './gemini-dialect.js';
import { ollamaDialect, ollamaShowDialect } from './ollama-dialect.js';
import { azureDialect, openAiDialect } from './openai-dialect.js';
import type { WireDialect, WireProvider } from './script.js';

export interface WireRoute {
  provider: WireProvider;
  kind: 'chat' | 'check';
  method: string;
  pattern: RegExp;
  dialect: WireDialect;
  /** Where the model name is: a path group, or the JSON body's `model`. */
  modelFrom: 'path' | 'body';
}

/** Every route the wire server answers; the first match wins. */
export const wireRoutes: WireRoute[] = [
  { provider: 'anthropic', kind: 'chat', method: 'POST', pattern: /^(?:\/v1)?\/messages$/, dialect: anthropicDialect, modelFrom: 'body' },
  { provider: 'anthropic', kind: 'check', method: 'POST', pattern: /^(?:\/v1)?\/messages\/count_tokens$/, dialect: anthropicDialect, modelFrom: 'body' },
  { provider: 'azure', kind: 'chat', method: 'POST', pattern: /^\/openai\/deployments\/([^/]+)\/chat\/completions$/, dialect: azureDialect, modelFrom: 'path' },
  { provider: 'azure', kind: 'check', method: 'GET', pattern: /^\/openai\/models$/, dialect: azureDialect, modelFrom: 'body' },
  { provider: 'openai', kind: 'chat', method: 'POST', pattern: /^(?:\/v1)?\/chat\/completions$/, dialect: openAiDialect, modelFrom: 'body' },
  { provider: 'openai', kind: 'check', method: 'GET', pattern: /^(?:\/v1)?\/models$/, dialect: openAiDialect, modelFrom: 'body' },
  { provider: 'ollama', kind: 'chat', method: 'POST', pattern: /^\/api\/chat$/, dialect: ollamaDialect, modelFrom: 'body' },
  { provider: 'ollama', kind: 'check', method: 'GET', pattern: /^\/api\/version$/, dialect: ollamaDialect, modelFrom: 'body' },
  { provider: 'ollama', kind: 'check', method: 'POST', pattern: /^\/api\/show$/, dialect: ollamaShowDialect, modelFrom: 'body' },
  {
    provider: 'gemini',
    kind: 'chat',
    method: 'POST',
    pattern: /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/,
    dialect: geminiDialect,
    modelFrom: 'path',
  },
  { provider: 'gemini', kind: 'check', method: 'GET', pattern: /^\/v1beta\/models\/([^/:]+)$/, dialect: geminiDialect, modelFrom: 'path' },
  { provider: 'bedrock', kind: 'chat', method: 'POST', pattern: /^\/model\/([^/]+)\/converse-stream$/, dialect: bedrockDialect, modelFrom: 'path' },
  { provider: 'bedrock', kind: 'check', method: 'POST', pattern: /^\/model\/([^/]+)\/count-tokens$/, dialect: bedrockDialect, modelFrom: 'path' },
];

export interface MatchedRoute {
  route: WireRoute;
  pathModel: string | undefined;
}

export function matchRoute(method: string, path: string): MatchedRoute | undefined {
  for (const route of wireRoutes) {
    const match = route.method === method ? route.pattern.exec(path) : null;
    if (match) return { route, pathModel: match[1] };
  }
  return undefined;
}
