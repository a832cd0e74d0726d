/** One server-sent event as the tests read it: its name and its JSON data. */
export interface FollowedEvent<T = unknown> {
  event: string;
  data: T;
}

/** An SSE response being read: the events so far, whether the server ended it, and `close()`. */
export interface Followed<T = unknown> {
  events: FollowedEvent<T>[];
  ended: () => boolean;
  close: () => Promise<void>;
}

/** Reads an SSE response (`event:` and `data:` lines, blocks split by a blank line) into `events` until `close()` or its end. */
export function followEvents<T = unknown>(response: Response): Followed<T> {
  const events: FollowedEvent<T>[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  const pump = (async () => {
    for (;;) {
      const read = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (read.done) return void (done = true);
      buffer += decoder.decode(read.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) as T });
      }
    }
  })();
  return { events, ended: () => done, close: async () => (await reader.cancel().catch(() => undefined), await pump) };
}
