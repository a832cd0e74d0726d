export { startLlmWireServer, type LlmWireServer } from './server.js';
export { decodeEventStreamMessage, encodeBedrockEvent, encodeEventStreamMessage } from './event-stream.js';
export { collectStream, finishReasonOf, textsOf, toolCallsOf, type CollectedStream } from './collect.js';
export type { RecordedRequest, ScriptedToolCall, ScriptedTurn, WireProvider } from './script.js';
