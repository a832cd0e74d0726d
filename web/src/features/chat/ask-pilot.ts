import { useEffect, useRef } from 'react';

const askEvent = 'pilothouse:ask';

/** Puts a question into the pilot's composer (opening the panel), for the user to send or edit: the palette's "Ask the pilot". */
export function askPilot(question: string): void {
  window.dispatchEvent(new CustomEvent<string>(askEvent, { detail: question }));
}

/** Calls `onAsk` with every question {@link askPilot} puts to the pilot. */
export function useAskedQuestions(onAsk: (question: string) => void): void {
  const latest = useRef(onAsk);
  useEffect(() => {
    latest.current = onAsk;
  });
  useEffect(() => {
    const listener = (event: Event): void => {
      if (event instanceof CustomEvent && typeof event.detail === 'string') latest.current(event.detail);
    };
    window.addEventListener(askEvent, listener);
    return () => window.removeEventListener(askEvent, listener);
  }, []);
}
