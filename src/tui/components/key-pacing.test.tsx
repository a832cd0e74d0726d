import { Text, useInput } from 'ink';
import { render } from 'ink-testing-library';
import { useState, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/cluster.js';
import { useKeyPacing } from './key-pacing.js';
import { useTextInput } from './use-text-input.js';

function Line(props: { onSubmit(value: string): void; onCancel(): void }): ReactElement {
  const { value } = useTextInput(true, '', props);
  return <Text>:{value}</Text>;
}

/** A shell like the TUI's: `j` moves, `e` would edit, `:` opens a command line that runs what is typed. */
function Shell(props: { seen: string[] }): ReactElement {
  useKeyPacing();
  const [line, setLine] = useState(false);
  const [row, setRow] = useState(0);
  useInput(
    (input) => {
      props.seen.push(input);
      if (input === 'j') setRow((value) => value + 1);
      if (input === ':') setLine(true);
    },
    { isActive: !line },
  );
  if (line) return <Line onSubmit={(value) => (props.seen.push(`ran ${value}`), setLine(false))} onCancel={() => setLine(false)} />;
  return <Text>row {row}</Text>;
}

/** Polls, one macrotask apart, until `check` holds (5 s at most). */
const until = (check: () => boolean): Promise<void> => waitFor(check, 5_000, 10);

/** Renders the shell; resolves once Ink reads its input. */
async function started(seen: string[]): Promise<ReturnType<typeof render>> {
  const app = render(<Shell seen={seen} />);
  await until(() => app.stdin.listenerCount('readable') > 0);
  return app;
}

/**
 * Waits until `seen` holds `count` entries (keys are delivered one per scheduler task) and proves nothing else
 * is still coming: once the table is back, a last `z` is typed, and it must be the next thing seen (order is kept).
 */
async function received(app: ReturnType<typeof render>, seen: string[], count: number): Promise<void> {
  await until(() => seen.length >= count);
  await until(() => app.lastFrame()?.startsWith('row') ?? false);
  app.stdin.write('z');
  await until(() => seen.at(-1) === 'z');
}

/** Starts the app, writes each piece as one read (all in the same turn), and waits for `count` keys to be seen. */
async function typed(pieces: readonly string[], count: number): Promise<{ seen: string[]; app: ReturnType<typeof render> }> {
  const seen: string[] = [];
  const app = await started(seen);
  for (const piece of pieces) app.stdin.write(piece);
  await received(app, seen, count);
  return { seen, app };
}

describe('key pacing', () => {
  it('gives a command line everything read with the key that opened it', async () => {
    const { seen, app } = await typed([':reports\r'], 2);
    expect(seen).toEqual([':', 'ran reports', 'z']);
    app.unmount();
  });

  it('gives it what arrives in the same turn, before it has rendered, and not the keys behind it', async () => {
    const { seen, app } = await typed([':', 'edit', '\r'], 2);
    expect(seen).toEqual([':', 'ran edit', 'z']);
    app.unmount();
  });

  it('delivers held keys read together one by one, in order', async () => {
    const { seen, app } = await typed(['jjj', ':x\r', 'jj'], 7);
    expect(seen).toEqual(['j', 'j', 'j', ':', 'ran x', 'j', 'j', 'z']);
    expect(app.lastFrame()).toContain('row 5');
    app.unmount();
  });

  it('keeps a paste into a listening line as one edit', async () => {
    const seen: string[] = [];
    const app = await started(seen);
    app.stdin.write(':');
    // The line has rendered and listens: what arrives now is one paste.
    await until(() => app.lastFrame() === ':');
    app.stdin.write('a pasted line\r');
    await received(app, seen, 2);
    expect(seen).toEqual([':', 'ran a pasted line', 'z']);
    app.unmount();
  });
});
