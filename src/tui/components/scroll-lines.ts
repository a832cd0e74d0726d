import { useRef, useState } from 'react';
import { useInput } from 'ink';

type Arrows = { upArrow: boolean; downArrow: boolean; pageUp: boolean; pageDown: boolean };

/** Which line to show first after a key, or undefined when the key is not a scroll key. */
function scrolled(input: string, key: Arrows, position: { top: number; page: number; last: number }): number | undefined {
  const { top, page, last } = position;
  const steps: [boolean, number][] = [
    [key.upArrow || input === 'k', top - 1],
    [key.downArrow || input === 'j', top + 1],
    [key.pageUp, top - page],
    [key.pageDown || input === ' ', top + page],
    [input === 'g', 0],
    [input === 'G', last],
  ];
  return steps.find(([matches]) => matches)?.[1];
}

/** Scrolling through text lines (describe, YAML, logs): arrows, j/k, pages, g/G; `follow` pins the end. */
export function useScroll(count: number, height: number, active: boolean): { top: number; setTop: (top: number) => void; atEnd: boolean } {
  const [top, setTopState] = useState(0);
  const latest = useRef(0);
  const last = Math.max(0, count - height);
  const setTop = (next: number): void => {
    latest.current = Math.max(0, Math.min(last, next));
    setTopState(latest.current);
  };
  useInput(
    (input, key) => {
      const next = scrolled(input, key, { top: Math.min(latest.current, last), page: Math.max(1, height - 1), last });
      if (next !== undefined) setTop(next);
    },
    { isActive: active },
  );
  return { top: Math.min(top, last), setTop, atEnd: top >= last };
}

/** The index of the next line containing `needle` after `from` (wrapping), or -1. */
export function nextMatch(lines: string[], needle: string, from: number): number {
  if (!needle) return -1;
  const lower = needle.toLowerCase();
  for (let step = 1; step <= lines.length; step++) {
    const index = (from + step) % lines.length;
    if (lines[index]?.toLowerCase().includes(lower)) return index;
  }
  return -1;
}
