import { useState, type FormEvent } from 'react';

/** State of a form's submit: busy while `run` goes, its failure kept to show; `submit` is the form's onSubmit. */
export interface SubmitState {
  busy: boolean;
  error: unknown;
  submit(event: FormEvent): void;
}

/** One way to submit a form that calls the API (no page reload, the error shown until the next try). */
export function useSubmit(run: () => Promise<void>): SubmitState {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    void run()
      .catch((failure: unknown) => setError(failure))
      .finally(() => setBusy(false));
  };
  return { busy, error, submit };
}
