/**
 * A whole-number stepper with real, labelled buttons and a labelled field (SPEC §2 gift
 * quantity, §5 max 99, an integer). What is typed is kept as typed: a value that is not a
 * whole number in range is shown as such and reported as null, never silently changed.
 * `value` is the starting value; the field owns what is typed from then on.
 */
import { useId, useState } from 'react';
import AddOutline from 'antd-mobile-icons/es/AddOutline';
import MinusOutline from 'antd-mobile-icons/es/MinusOutline';

export function QuantityStepper({
  value, min, max, label, onChange,
}: {
  value: number | null;
  min: number;
  max: number;
  label: string;
  /** A whole number from min to max, or null while the field holds anything else. */
  onChange: (value: number | null) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value === null ? '' : String(value));
  const parse = (raw: string) => {
    const n = Number(raw);
    return raw.trim() !== '' && Number.isInteger(n) && n >= min && n <= max ? n : null;
  };
  const set = (raw: string) => {
    setText(raw);
    onChange(parse(raw));
  };
  const step = (by: number) => {
    const current = value ?? min;
    set(String(Math.min(max, Math.max(min, current + by))));
  };
  const invalid = parse(text) === null;
  return (
    <div className="quantity-stepper">
      <label htmlFor={id} className="quantity-label">{label}</label>
      <button type="button" className="icon-button quantity-button" aria-label="Fewer" disabled={value !== null && value <= min} onClick={() => step(-1)}><MinusOutline aria-hidden /></button>
      <input
        id={id}
        className="field-input quantity-input"
        inputMode="numeric"
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-hint` : undefined}
        value={text}
        onChange={(e) => set(e.target.value)}
      />
      <button type="button" className="icon-button quantity-button" aria-label="More" disabled={value !== null && value >= max} onClick={() => step(1)}><AddOutline aria-hidden /></button>
      {invalid && <span id={`${id}-hint`} role="alert" className="form-error quantity-hint">{`A whole number from ${min} to ${max}.`}</span>}
    </div>
  );
}
