/** Milliseconds since the epoch; injected so tests can move time without sleeping. */
export type Clock = () => number;

/** The wall clock. */
export const systemClock: Clock = () => Date.now();
