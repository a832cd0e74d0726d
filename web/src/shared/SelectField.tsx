import type { ReactNode } from 'react';

/** `T`: the options; `V`: the value (an option, or '' for "any"). */
interface SelectFieldProps<T extends string, V extends string> {
  label: string;
  value: V;
  options: readonly T[];
  onValue: (value: V) => void;
  /** An option's text (the value itself when not given). */
  text?: (option: T) => string;
  /** The text of a first, empty option ("any"), when there is one. */
  any?: string;
  /** The label's class ("field" unless told) and its text's class. */
  className?: string;
  labelClassName?: string;
}

/** A labelled select of some values (the label names it for screen readers and tests alike). */
export function SelectField<T extends string, V extends string = T>({
  label,
  value,
  options,
  onValue,
  text,
  any,
  className = 'field',
  labelClassName,
}: SelectFieldProps<T, V>): ReactNode {
  return (
    <label className={className}>
      <span className={labelClassName}>{label}</span>
      <select value={value} onChange={(event) => onValue(event.target.value as V)}>
        {any !== undefined && <option value="">{any}</option>}
        {options.map((option) => (
          <option key={option} value={option}>
            {text ? text(option) : option}
          </option>
        ))}
      </select>
    </label>
  );
}
