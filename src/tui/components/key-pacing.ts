import type { EventEmitter } from 'node:events';
import { useStdin } from 'ink';
import { useEffect, useState } from 'react';

/**
 * Keys typed faster than the screen redraws go where the user meant them.
 *
 * Ink hands each read from the terminal to every input handler at once: `:reports⏎` read in one go (a
 * paste, a fast typist, a busy redraw) reached the table as one unknown key, and a `:` followed by
 * `reports` in the same read reached the table's handlers before the command line had rendered and
 * started to listen (`e` for edit, `r` ...). Held keys (`jjj`) read together were lost the same way.
 *
 * The rule: while no text line listens (the app reads single-key commands), keys are delivered one
 * character at a time, the next one from a later timer callback. Ink runs key handlers at discrete
 * priority, so React renders what a key changed in the microtasks right after it and runs that render's
 * effects at once: by the next macrotask the screen a key opens (`:`, `/`, a prompt) is listening. (A task
 * of React's scheduler would not do: the scheduler runs its tasks back to back, with no microtask
 * checkpoint between them.) While a text line listens, what arrives is delivered whole, up to and with an
 * Enter (a paste stays one edit). Order is always kept. Escape sequences (arrows, function keys) are never
 * split.
 */
class KeyPacer {
  private readonly queue: string[] = [];
  private turnUsed = false;
  private scheduled = false;
  private textLines = 0;

  constructor(private readonly deliver: (data: string) => void) {}

  /** A text line started listening; returns the function that says it stopped. */
  listen(): () => void {
    this.textLines += 1;
    let listening = true;
    return () => {
      if (listening) [listening, this.textLines] = [false, this.textLines - 1];
    };
  }

  push(data: string): void {
    this.queue.push(data);
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      if (this.turnUsed) return this.nextTurn();
      if (this.textLines > 0) {
        if (this.deliverText()) this.endTurn();
        continue;
      }
      this.deliver(this.takeOneKey());
      this.endTurn();
    }
  }

  /**
   * Delivers the first queued text to the listening line, up to and with its first Enter; true when what was
   * delivered may close the line (Enter, Escape): what follows waits for the next turn, when it is gone.
   */
  private deliverText(): boolean {
    const first = this.queue[0]!;
    const end = first.search(/[\r\n]/);
    if (end >= 0 && end < first.length - 1) {
      this.queue[0] = first.slice(end + 1);
      this.deliver(first.slice(0, end + 1));
      return true;
    }
    this.queue.shift();
    this.deliver(first);
    return end >= 0 || first.startsWith('\u001B');
  }

  private endTurn(): void {
    this.turnUsed = true;
    this.nextTurn();
  }

  /** The first key of the queue: one character of text, or a whole escape sequence. */
  private takeOneKey(): string {
    const first = this.queue[0]!;
    const characters = first.startsWith('\u001B') ? [first] : Array.from(first);
    if (characters.length <= 1) return this.queue.shift()!;
    this.queue[0] = first.slice(characters[0]!.length);
    return characters[0]!;
  }

  /** The next key goes from a timer callback: a later macrotask, after React's render of this one. */
  private nextTurn(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.turnUsed = false;
      this.pump();
    });
  }
}

type InputEmitter = EventEmitter & { emit(event: string | symbol, ...args: unknown[]): boolean };

const pacers = new WeakMap<EventEmitter, KeyPacer>();

/** The pacer of the Ink instance rendering this component (installed by `useKeyPacing`). */
function pacerOf(stdin: ReturnType<typeof useStdin>): KeyPacer | undefined {
  const emitter = (stdin as { internal_eventEmitter?: EventEmitter }).internal_eventEmitter;
  return emitter ? pacers.get(emitter) : undefined;
}

/** Puts the pacing between the Ink instance's input and its handlers (once per instance). */
function install(emitter: InputEmitter): () => void {
  const known = pacers.get(emitter);
  if (known) return () => undefined;
  const emit = emitter.emit.bind(emitter);
  const pacer = new KeyPacer((data) => emit('input', data));
  pacers.set(emitter, pacer);
  emitter.emit = (event: string | symbol, ...args: unknown[]): boolean => {
    if (event !== 'input' || typeof args[0] !== 'string') return emit(event, ...args);
    pacer.push(args[0]);
    return true;
  };
  return () => {
    emitter.emit = emit;
    pacers.delete(emitter);
  };
}

/**
 * Installs the pacing on the Ink instance's input (in the application shell). It is installed while the
 * shell first renders, before any text line's effect asks for it, and removed when the shell goes.
 */
export function useKeyPacing(): void {
  const stdin = useStdin();
  const emitter = (stdin as { internal_eventEmitter?: InputEmitter }).internal_eventEmitter;
  const [uninstall] = useState(() => (emitter ? install(emitter) : () => undefined));
  useEffect(() => uninstall, [uninstall]);
}

/** Says, while `active`, that a text line listens: keys then arrive whole. Call after the line's `useInput`. */
export function useTextLineListening(active: boolean): void {
  const stdin = useStdin();
  useEffect(() => {
    if (!active) return;
    return pacerOf(stdin)?.listen();
  }, [active, stdin]);
}
