import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import { createLlmProvider } from '../../../src/llm/providers/index.js';
import type { LlmConfig, LlmMessage, LlmProvider, LlmToolCall, LlmToolSpec } from '../../../src/llm/types.js';
import { collectStream, finishReasonOf, textsOf, toolCallsOf } from './collect.js';
import { startLlmWireServer, type LlmWireServer } from './server.js';

/** The key every conformance config carries; it must never show up in an error. */
export const wireApiKey = 'sk-wire-secret-0123456789';

export interface ProviderTarget {
  provider: LlmConfig['provider'];
  /** Provider-specific config pointing at the wire server. */
  config(url: string): Partial<LlmConfig>;
  /** Asserts the tool definitions as this provider's SDK put them on the wire. */
  toolsSent(body: unknown): void;
  /** Asserts the replayed tool call and its result in the follow-up request. */
  toolResultSent(body: unknown, call: LlmToolCall): void;
  /** Extra assertions on the recorded chat request (headers, query). */
  requestShape?(request: LlmWireServer['requests'][number]): void;
  /** False for providers whose usage has no cached part (Ollama). */
  reportsCachedTokens?: boolean;
}

export const kubectlGet: LlmToolSpec = {
  name: 'kubectl_get',
  description: 'List Kubernetes resources',
  inputSchema: { type: 'object', properties: { resource: { type: 'string' }, namespace: { type: 'string' } }, required: ['resource'] },
};

const userAsks: LlmMessage[] = [
  { role: 'system', content: 'You are the Pilothouse pilot.' },
  { role: 'user', content: 'Which pods run in default?' },
];

export interface WireHarness {
  server: LlmWireServer;
  sleeps: number[];
  provider(overrides?: Partial<LlmConfig>): LlmProvider;
}

/** Starts one wire server for a describe block and builds providers against it. */
export function useWireHarness(target: ProviderTarget): WireHarness {
  const harness = { sleeps: [] as number[] } as WireHarness;
  beforeAll(async () => {
    harness.server = await startLlmWireServer();
  });
  afterAll(async () => harness.server.close());
  beforeEach(() => {
    harness.sleeps.length = 0;
    harness.server.reset();
  });
  harness.provider = (overrides = {}) => {
    const base = { model: 'wire-model', timeout: 2_000, max_retries: 2, api_key: wireApiKey };
    const config = { ...base, ...target.config(harness.server.url), ...overrides, provider: target.provider } as LlmConfig;
    const sleep = async (milliseconds: number): Promise<void> => void harness.sleeps.push(milliseconds);
    return createLlmProvider(config, { sleep, retryBaseDelayMs: 100, checkTimeoutMs: 1_000 });
  };
  return harness;
}

function expectLlmError(error: unknown): Record<string, unknown> {
  expect(isAppError(error)).toBe(true);
  if (!isAppError(error)) throw error;
  expect(error.code).toBe('LLM_ERROR');
  return error.details;
}

/** The behaviour every adapter shares, run through the real SDK against the wire server. */
export function describeProviderConformance(target: ProviderTarget): void {
  describe(`${target.provider} over its wire protocol`, () => {
    const harness = useWireHarness(target);
    const chat = (provider: LlmProvider, messages = userAsks, signal?: AbortSignal) =>
      collectStream(provider.streamChat({ messages, tools: [kubectlGet], signal }));

    it('streams text in several chunks', async () => {
      harness.server.script([{ text: ['Three ', 'pods ', 'run.'] }]);
      const { events, error } = await chat(harness.provider());
      expect(error).toBeUndefined();
      expect(textsOf(events)).toEqual(['Three ', 'pods ', 'run.']);
      expect(events.at(-1)).toMatchObject({ type: 'done', finishReason: 'stop' });
      const [request] = harness.server.chatRequests();
      expect(request?.provider).toBe(target.provider);
      if (request) target.toolsSent(request.body);
      if (request && target.requestShape) target.requestShape(request);
    });

    it("reports the call's input, output and cached tokens from the provider's usage fields", async () => {
      harness.server.script([{ text: ['Fine.'], usage: { input: 1_200, output: 34, cached: 1_000 } }]);
      const { events, error } = await chat(harness.provider());
      expect(error).toBeUndefined();
      const cachedInputTokens = target.reportsCachedTokens === false ? 0 : 1_000;
      expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop', usage: { inputTokens: 1_200, outputTokens: 34, cachedInputTokens } });
    });

    it('parses the arguments of a tool call', async () => {
      harness.server.script([{ toolCalls: [{ name: 'kubectl_get', arguments: { resource: 'pods', namespace: 'default' } }] }]);
      const { events, error } = await chat(harness.provider());
      expect(error).toBeUndefined();
      const [call] = toolCallsOf(events);
      expect(call).toMatchObject({ name: 'kubectl_get', arguments: { resource: 'pods', namespace: 'default' } });
      expect(call?.id).toMatch(/\S/);
      expect(finishReasonOf(events)).toBe('tool_calls');
    });

    it('returns two tool calls of one response with distinct ids', async () => {
      harness.server.script([
        {
          text: ['Checking.'],
          toolCalls: [
            { name: 'kubectl_get', arguments: { resource: 'pods' } },
            { name: 'kubectl_get', arguments: { resource: 'services', namespace: 'kube-system' } },
          ],
        },
      ]);
      const { events } = await chat(harness.provider());
      const calls = toolCallsOf(events);
      expect(calls.map((call) => call.arguments)).toEqual([{ resource: 'pods' }, { resource: 'services', namespace: 'kube-system' }]);
      expect(new Set(calls.map((call) => call.id)).size).toBe(2);
      expect(textsOf(events)).toEqual(['Checking.']);
    });

    it('sends the tool call and its result back on the next turn', async () => {
      harness.server.script([{ toolCalls: [{ name: 'kubectl_get', arguments: { resource: 'pods' } }] }, { text: ['pod-a is running.'] }]);
      const provider = harness.provider();
      const [call] = toolCallsOf((await chat(provider)).events);
      if (!call) throw new Error('no tool call');
      const followUp: LlmMessage[] = [
        ...userAsks,
        { role: 'assistant', content: '', toolCalls: [call] },
        { role: 'tool', toolCallId: call.id, name: call.name, content: 'pod-a Running' },
      ];
      const { events } = await chat(provider, followUp);
      expect(textsOf(events).join('')).toBe('pod-a is running.');
      target.toolResultSent(harness.server.chatRequests()[1]?.body, call);
    });

    it('retries an HTTP 500 before any output, then succeeds', async () => {
      harness.server.script([{ error: { status: 500, message: 'upstream exploded' } }, { text: ['recovered'] }]);
      const { events, error } = await chat(harness.provider());
      expect(error).toBeUndefined();
      expect(textsOf(events)).toEqual(['recovered']);
      expect(harness.server.chatRequests()).toHaveLength(2);
      expect(harness.sleeps).toEqual([100]);
    });

    it('retries a 429 with exponential backoff, a bounded number of times', async () => {
      const busy = { error: { status: 429, message: 'slow down' } };
      harness.server.script([busy, busy, busy]);
      const { error } = await chat(harness.provider({ max_retries: 2 }));
      expect(expectLlmError(error)).toMatchObject({ provider: target.provider, status: 429 });
      expect(harness.server.chatRequests()).toHaveLength(3);
      expect(harness.sleeps).toEqual([100, 200]);
    });

    it('retries a timeout', async () => {
      harness.server.script([{ text: ['late'], delayMs: 1_500 }, { text: ['in time'] }]);
      const { events, error } = await chat(harness.provider({ timeout: 400 }));
      expect(error).toBeUndefined();
      expect(textsOf(events)).toEqual(['in time']);
      expect(harness.sleeps).toEqual([100]);
    });

    it('fails a 401 at once, with the provider message but never the key', async () => {
      const apiKey = target.config(harness.server.url).api_key ?? wireApiKey;
      harness.server.script([{ error: { status: 401, message: `Incorrect API key provided: ${apiKey}` } }, { text: ['unused'] }]);
      const { error } = await chat(harness.provider());
      const details = expectLlmError(error);
      expect(details).toMatchObject({ provider: target.provider, status: 401 });
      expect(String(details.providerMessage)).toContain('Incorrect API key provided');
      expect(JSON.stringify(details) + (error as Error).message).not.toContain(apiKey);
      expect(harness.server.chatRequests()).toHaveLength(1);
      expect(harness.server.pendingTurns()).toBe(1);
    });

    it('raises LLM_ERROR when the stream breaks after output, without replaying', async () => {
      harness.server.script([{ text: ['partial ', 'answer ', 'lost'], failAfterChunks: 1 }, { text: ['replayed'] }]);
      const { events, error } = await chat(harness.provider());
      expectLlmError(error);
      expect(textsOf(events)).toEqual(['partial ']);
      expect(harness.server.chatRequests()).toHaveLength(1);
    });

    it('times out a stream that stalls after output, without replaying', async () => {
      harness.server.script([{ text: ['partial ', 'never'], stallAfterChunks: 1 }, { text: ['replayed'] }]);
      const { events, error } = await chat(harness.provider({ timeout: 400 }));
      expect(expectLlmError(error)).toMatchObject({ provider: target.provider, timeout: true });
      expect(textsOf(events)).toEqual(['partial ']);
      expect(harness.server.chatRequests()).toHaveLength(1);
      expect(harness.sleeps).toEqual([]);
    });

    it('stops when the caller aborts', async () => {
      harness.server.script([{ text: ['one ', 'two ', 'three'], delayMs: 50 }]);
      const controller = new AbortController();
      const { events, error } = await collectStream(harness.provider().streamChat({ messages: userAsks, tools: [kubectlGet], signal: controller.signal }), () =>
        controller.abort(),
      );
      expect(expectLlmError(error)).toMatchObject({ aborted: true });
      expect(textsOf(events)).toEqual(['one ']);
    });

    it('sends nothing when the signal is already aborted', async () => {
      const { error } = await chat(harness.provider(), userAsks, AbortSignal.abort());
      expect(expectLlmError(error)).toMatchObject({ aborted: true });
      expect(harness.server.chatRequests()).toHaveLength(0);
    });

    it('reports availability', async () => {
      expect(await harness.provider().check()).toBe('available');
      expect(harness.server.requests.at(-1)?.kind).toBe('check');
      harness.server.setAvailable(false);
      expect(await harness.provider().check()).toBe('unavailable');
    });

    it('reports an unreachable endpoint as unavailable', async () => {
      const closed = await startLlmWireServer();
      await closed.close();
      const provider = createLlmProvider({
        ...({ model: 'wire-model', timeout: 1_000, max_retries: 0, api_key: wireApiKey } as LlmConfig),
        ...target.config(closed.url),
        provider: target.provider,
      } as LlmConfig);
      expect(await provider.check()).toBe('unavailable');
    });
  });
}
