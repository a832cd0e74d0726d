/**
 * Keeps what a child wrote to stderr for failure messages: the beginning (where programs usually
 * print the error) and the last part (where they print the final words), bounded.
 */
export class StderrTail {
  private head = '';
  private tail = '';
  private dropped = false;

  constructor(
    private readonly headLimit = 600,
    private readonly tailLimit = 1400,
  ) {}

  append(chunk: Buffer | string): void {
    let text = chunk.toString();
    if (this.head.length < this.headLimit) {
      const room = this.headLimit - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    const joined = this.tail + text;
    if (joined.length > this.tailLimit) this.dropped = true;
    this.tail = joined.slice(-this.tailLimit);
  }

  /** The excerpt, trimmed; empty when the child wrote nothing. */
  toString(): string {
    return (this.dropped ? `${this.head} […] ${this.tail}` : this.head + this.tail).trim();
  }
}
