import type WebSocket from 'ws';

/** A frame of the web terminal's WebSocket (`pilothouse.terminal.v1`). */
export interface TerminalFrame {
  type: string;
  data?: string;
  code?: number | null;
  message?: string;
}

/**
 * Opens a terminal and has a conversation: each step's input is typed once the output so far matches its `after`
 * (the prompt, then the answer to the step before), as a person would; collects frames until the exit frame.
 */
export function terminalSession(socket: WebSocket, steps: { after: RegExp; input: string }[]): Promise<TerminalFrame[]> {
  const frames: TerminalFrame[] = [];
  let output = '';
  let next = 0;
  return new Promise((resolve, reject) => {
    socket.on('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.on('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'resize', cols: 100, rows: 30 })));
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as TerminalFrame;
      frames.push(frame);
      if (frame.type === 'output') output += frame.data ?? '';
      const step = steps[next];
      if (step && step.after.test(output)) {
        next += 1;
        socket.send(JSON.stringify({ type: 'input', data: step.input }));
      }
      if (frame.type === 'exit') resolve(frames);
    });
    socket.on('close', () => resolve(frames));
  });
}

/** The output frames' text, joined. */
export function terminalOutput(frames: TerminalFrame[]): string {
  return frames
    .filter((frame) => frame.type === 'output')
    .map((frame) => frame.data)
    .join('');
}
