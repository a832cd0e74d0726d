import { Text, useInput } from 'ink';
import { render } from 'ink-testing-library';
import { useState, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
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

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));

/** Waits until `seen` holds `count` entries (keys are delivered one per scheduler task), or 5 s. */
async function received(seen: string[], count: number): Promise<void> {
  for (const deadline = Date.now() + 5000; seen.length < count && Date.now() < deadline;) await settle();
  await settle();
}

describe('key pacing', () => {
  it('gives a command line everything read with the key that opened it', async () => {
    const seen: string[] = [];
    const app = render(<Shell seen={seen} />);
    await settle();
    app.stdin.write(':reports\r');
    await received(seen, 2);
    expect(seen).toEqual([':', 'ran reports']);
    app.unmount();
  });

  it('gives it what arrives in the same turn, before it has rendered, and not the keys behind it', async () => {
    const seen: string[] = [];
    const app = render(<Shell seen={seen} />);
    await settle();
    app.stdin.write(':');
    app.stdin.write('edit');
    app.stdin.write('\r');
    await received(seen, 2);
    expect(seen).toEqual([':', 'ran edit']);
    app.unmount();
  });

  it('delivers held keys read together one by one, in order', async () => {
    const seen: string[] = [];
    const app = render(<Shell seen={seen} />);
    await settle();
    app.stdin.write('jjj');
    app.stdin.write(':x\r');
    app.stdin.write('jj');
    await received(seen, 7);
    expect(seen).toEqual(['j', 'j', 'j', ':', 'ran x', 'j', 'j']);
    expect(app.lastFrame()).toContain('row 5');
    app.unmount();
  });

  it('keeps a paste into a listening line as one edit', async () => {
    const seen: string[] = [];
    const app = render(<Shell seen={seen} />);
    await settle();
    app.stdin.write(':');
    await settle();
    app.stdin.write('a pasted line\r');
    await received(seen, 2);
    expect(seen).toEqual([':', 'ran a pasted line']);
    app.unmount();
  });
});
