import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** Quotes one word for the shell tmux runs the command with. */
const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * A program running in its own tmux server (private socket, no user config) in a pane of a fixed
 * size: send keys, read the screen with capture-pane, wait for text.
 */
export class TmuxPane {
  private constructor(private readonly socket: string) {}

  /** Starts `argv` with `env` in a `width`×`height` pane; when it exits the pane shows `[exited N]`. */
  static start(argv: string[], env: Record<string, string>, size = { width: 120, height: 40 }): TmuxPane {
    const socket = `ph-tui-${randomBytes(4).toString('hex')}`;
    const assignments = Object.entries({ LANG: 'C.UTF-8', LC_ALL: '', TERM: 'xterm-256color', ...env }).map(([key, value]) => `${key}=${quote(value)}`);
    const command = `env ${assignments.join(' ')} ${argv.map(quote).join(' ')}; echo "[exited $?]"; sleep 600`;
    execFileSync('tmux', [
      '-L',
      socket,
      '-f',
      '/dev/null',
      '-u',
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(size.width),
      '-y',
      String(size.height),
      command,
    ]);
    return new TmuxPane(socket);
  }

  private tmux(args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Keys by tmux name (`Enter`, `Escape`, `C-d`, `BSpace`) or single characters. */
  keys(...keys: string[]): void {
    this.tmux(['send-keys', '-t', 'main', ...keys]);
  }

  /** Types text literally. */
  type(text: string): void {
    this.tmux(['send-keys', '-t', 'main', '-l', '--', text]);
  }

  /** Resizes the window (the program gets SIGWINCH). */
  resize(width: number, height: number): void {
    this.tmux(['resize-window', '-t', 'main', '-x', String(width), '-y', String(height)]);
  }

  /** The pane's text now. */
  screen(): string {
    return this.tmux(['capture-pane', '-p', '-t', 'main']);
  }

  /** The pane's text now with its colours and attributes as SGR sequences (capture-pane -e): screenshots. */
  colouredScreen(): string {
    return this.tmux(['capture-pane', '-p', '-e', '-t', 'main']);
  }

  /** Appends everything the program writes to the pane from now on to `file` (tmux pipe-pane): redraw timing. */
  pipeOutput(file: string): void {
    this.tmux(['pipe-pane', '-o', '-t', 'main', `cat >> ${quote(file)}`]);
  }

  /** Waits until the screen matches; returns it. Fails naming the last screen. */
  async waitFor(pattern: RegExp | string, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = this.screen();
      if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    throw new Error(`the screen never showed ${String(pattern)}; last screen:\n${screen}`);
  }

  /** Waits until the screen no longer shows `text` (e.g. a closed overlay): a key sent right after Escape would
   *  otherwise arrive as Alt+key. Returns the screen. */
  async waitForGone(text: string, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = this.screen();
    while (screen.includes(text) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      screen = this.screen();
    }
    if (screen.includes(text)) throw new Error(`the screen still shows ${text}; last screen:\n${screen}`);
    return screen;
  }

  /** Ends the tmux server and the program in it. */
  stop(): void {
    try {
      this.tmux(['kill-server']);
    } catch {
      // already gone
    }
  }
}
