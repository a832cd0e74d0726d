import { describe, expect, it } from 'vitest';
import { toBedrockConversation } from './bedrock/bedrock-messages.js';
import { GeminiCallMemory } from './gemini/gemini-call-memory.js';
import { toGeminiConversation } from './gemini/gemini-messages.js';
import type { LlmMessage } from '../types.js';

const twoCalls: LlmMessage[] = [
  { role: 'system', content: 'one' },
  { role: 'system', content: 'two' },
  { role: 'user', content: 'check pods and services' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'a', name: 'kubectl_get', arguments: { resource: 'pods' } },
      { id: 'b', name: 'kubectl_get', arguments: { resource: 'services' } },
    ],
  },
  { role: 'tool', toolCallId: 'a', name: 'kubectl_get', content: 'pod-a' },
  { role: 'tool', toolCallId: 'b', name: 'kubectl_get', content: 'svc-a' },
  { role: 'user', content: 'thanks' },
];

describe('message mapping', () => {
  it('gives Gemini one user turn of function responses, then the next user text', () => {
    const memory = new GeminiCallMemory();
    memory.remember('a', { thoughtSignature: 'sig-a', providerId: 'gemini-a' });
    const conversation = toGeminiConversation(twoCalls, memory);
    expect(conversation.systemInstruction).toBe('one\n\ntwo');
    expect(conversation.contents.map((content) => content.role)).toEqual(['user', 'model', 'user', 'user']);
    expect(conversation.contents[1]?.parts?.[0]).toEqual({
      functionCall: { name: 'kubectl_get', args: { resource: 'pods' }, id: 'gemini-a' },
      thoughtSignature: 'sig-a',
    });
    expect(conversation.contents[2]?.parts).toHaveLength(2);
    expect(conversation.contents[2]?.parts?.[0]?.functionResponse?.id).toBe('gemini-a');
  });

  it('gives Bedrock alternating turns, tool results merged with the next user text', () => {
    const conversation = toBedrockConversation(twoCalls);
    expect(conversation.system).toEqual([{ text: 'one' }, { text: 'two' }]);
    expect(conversation.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(conversation.messages[2]?.content).toEqual([
      { toolResult: { toolUseId: 'a', content: [{ text: 'pod-a' }] } },
      { toolResult: { toolUseId: 'b', content: [{ text: 'svc-a' }] } },
      { text: 'thanks' },
    ]);
  });

  it('forgets the oldest Gemini traces beyond its capacity', () => {
    const memory = new GeminiCallMemory(2);
    for (const id of ['x', 'y', 'z']) memory.remember(id, { thoughtSignature: id });
    expect(memory.recall('x')).toEqual({});
    expect(memory.recall('z')).toEqual({ thoughtSignature: 'z' });
  });
});
