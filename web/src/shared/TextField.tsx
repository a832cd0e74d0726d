import type { InputHTMLAttributes, ReactNode } from 'react';

type TextFieldProps = { label: string; value: string; onValue: (value: string) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>;

/** A labelled text input (the label names it for screen readers and tests alike). */
export function TextField({ label, value, onValue, ...input }: TextFieldProps): ReactNode {
  return (
    <label className="field">
      <span>{label}</span>
      <input {...input} value={value} onChange={(event) => onValue(event.target.value)} />
    </label>
  );
}
