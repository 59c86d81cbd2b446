/**
 * Setting the withdrawal password (6 digits, typed twice) or changing it with the old one
 * (`/api/wallet/setWithdrawPassWord`), bound to its own withdrawPassword actor. The digits stay
 * in the form until it is sent; they are never shown back.
 */
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../../ui/useScreenActor';
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { composeWithdrawPassword } from '../../../../machines/withdraw-password/withdraw-password.actors';
import { useWithdrawPort } from './hostMoney';

export const TEXT_PASSWORD_SAVED = 'Your withdrawal password is saved.';

/** A 6-digit secret field: numeric keypad, no autofill of a saved login password. */
export function PinField({ label, value, onChange, describedBy, invalid, autoFocus = false }: {
  label: string; value: string; onChange: (v: string) => void; describedBy?: string; invalid?: boolean; autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">{label}</label>
      <input
        id={id} className="field-input pin-input" type="password" inputMode="numeric" autoComplete="off" pattern="[0-9]*" maxLength={6}
        value={value} autoFocus={autoFocus} aria-invalid={invalid || undefined} aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, 6))}
      />
    </div>
  );
}

export function WithdrawPasswordForm({ hasPassword, onDone }: { hasPassword: boolean; onDone?: () => void }) {
  const port = useWithdrawPort();
  const [logic] = useState(() => composeWithdrawPassword({ withdraw: port }));
  const form = useScreenActor(logic, { input: { hasPassword } });
  const mode = useSelector(form, (s) => s.context.mode);
  const saving = useSelector(form, (s) => s.matches('saving'));
  const done = useSelector(form, (s) => s.matches('done'));
  const locked = useSelector(form, (s) => s.matches('locked'));
  const problem = useSelector(form, (s) => s.context.problem);
  const error = useSelector(form, (s) => s.context.error);
  const [oldPassword, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const ids = useId();
  const told = useRef(false);

  useEffect(() => {
    if (!done) {
      told.current = false;
      return;
    }
    if (told.current) return;
    told.current = true;
    setOld('');
    setPassword('');
    setConfirm('');
    onDone?.();
  }, [done, onDone]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    form.send({ type: 'password.submit', password, confirmPassword: confirm, ...(mode === 'change' ? { oldPassword } : {}) });
  };

  if (done) {
    return (
      <div className="host-panel" role="status">
        <p>{TEXT_PASSWORD_SAVED}</p>
        <button type="button" className="text-button" onClick={() => form.send({ type: 'password.change' })}>Change it</button>
      </div>
    );
  }
  if (locked) {
    return (
      <div className="host-panel">
        <p role="alert" className="form-error">{error}</p>
        <button type="button" className="text-button" onClick={() => form.send({ type: 'password.back' })}>OK</button>
      </div>
    );
  }
  const why = problem ?? error;
  return (
    <form className="host-panel" onSubmit={submit} noValidate aria-busy={saving} aria-label={mode === 'set' ? 'Set withdrawal password' : 'Change withdrawal password'}>
      <p className="muted">{mode === 'set' ? 'Choose 6 digits. You will type them each time you withdraw.' : 'Type the old password, then the new one twice.'}</p>
      {mode === 'change' && <PinField label="Old password" value={oldPassword} onChange={setOld} describedBy={why ? `${ids}-why` : undefined} invalid={problem !== null} />}
      <PinField label={mode === 'set' ? 'Withdrawal password' : 'New password'} value={password} onChange={setPassword} describedBy={why ? `${ids}-why` : undefined} invalid={problem !== null} />
      <PinField label="Type it again" value={confirm} onChange={setConfirm} describedBy={why ? `${ids}-why` : undefined} invalid={problem !== null} />
      {why && <p id={`${ids}-why`} role="alert" className="form-error">{why}</p>}
      <button type="submit" className="button-link button-primary button-block" disabled={saving}>
        {saving ? 'Saving…' : 'Save password'}
      </button>
    </form>
  );
}
