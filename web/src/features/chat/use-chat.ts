import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError, isAbort, readSse } from '@pilothouse/wire/wire-client';
import { useApi } from '../../shared/api-context';
import { chatReducer, initialChat, type ChatState } from './chat-state';

export interface ChatContextValue {
  namespace?: string;
  resource?: string;
  /** A finding the question is about ("Ask the pilot" on it): its id goes to the server, the label to the context chip. */
  finding?: { id: string; label: string };
}

export interface ChatControls {
  state: ChatState;
  send: (message: string, context: ChatContextValue) => void;
  stop: () => void;
  decide: (id: string, approved: boolean) => void;
  load: (sessionId: string) => Promise<void>;
  reset: () => void;
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return { content: data };
  }
}

/**
 * The chat conversation: `POST /api/chat/agentic` read as SSE with fetch (events applied as
 * they arrive), approvals via `POST /api/tool/approve`, stored sessions via `/api/chat/history`.
 */
export function useChat(): ChatControls {
  const client = useApi();
  const [state, dispatch] = useReducer(chatReducer, initialChat);
  const stream = useRef<AbortController | null>(null);
  const sessionId = useRef<string | undefined>(undefined);
  useEffect(() => {
    sessionId.current = state.sessionId;
  }, [state.sessionId]);

  useEffect(() => () => stream.current?.abort(), []);

  const send = useCallback(
    (message: string, context: ChatContextValue) => {
      if (stream.current) return;
      const controller = new AbortController();
      stream.current = controller;
      dispatch({ type: 'send', message, context: { namespace: context.namespace, resource: context.resource } });
      // The chat is about the cluster the page shows (the client view's `?cluster=`; absent: home): tool calls go there unless they name another.
      const body = {
        message,
        context: { namespace: context.namespace ?? '', resource: context.resource ?? '', ...(context.finding ? { finding: context.finding.id } : {}) },
        session_id: sessionId.current,
        ...(client.cluster ? { cluster: client.cluster } : {}),
      };
      const run = async (): Promise<void> => {
        const response = await client.request('POST', '/api/chat/agentic', { body, signal: controller.signal, accept: 'text/event-stream' });
        if (!response.body) return;
        await readSse(response.body, (event) => dispatch({ type: 'event', event: event.event, data: parseData(event.data) }), controller.signal);
      };
      run()
        .catch((error: unknown) => {
          if (isAbort(error) || controller.signal.aborted) return;
          const failure = error instanceof ApiError ? error : new ApiError(0, { error: String(error), code: 'STREAM' });
          dispatch({ type: 'failed', error: failure.message, code: failure.code });
        })
        .finally(() => {
          if (stream.current === controller) stream.current = null;
          dispatch({ type: 'finished' });
        });
    },
    [client],
  );

  const stop = useCallback(() => {
    stream.current?.abort();
    stream.current = null;
    dispatch({ type: 'event', event: 'stream_end', data: { complete: false, reason: 'cancelled' } });
  }, []);

  const decide = useCallback(
    (id: string, approved: boolean) => {
      dispatch({ type: 'deciding', id });
      client.call('POST', '/api/tool/approve', { body: { id, approved } }).then(
        () => dispatch({ type: 'decided', id, approved }),
        (error: unknown) => dispatch({ type: 'decided', id, approved, error: error instanceof Error ? error.message : String(error) }),
      );
    },
    [client],
  );

  const load = useCallback(
    async (id: string) => {
      stream.current?.abort();
      stream.current = null;
      const history = await client.call('GET', '/api/chat/history', { query: { session_id: id } });
      if ('messages' in history) dispatch({ type: 'load', history });
    },
    [client],
  );

  const reset = useCallback(() => {
    stream.current?.abort();
    stream.current = null;
    dispatch({ type: 'reset' });
  }, []);

  return { state, send, stop, decide, load, reset };
}
