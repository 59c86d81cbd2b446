/**
 * The sign-in and registration form: fields, the reason the last attempt failed, and a
 * submit button that shows progress while the root actor is submitting (further taps are
 * ignored by the machine, so a double tap sends one request). Plain elements: the sign-in
 * screen is a first screen and stays free of the component library's shared code.
 */
import type { FormEvent, ReactNode } from 'react';

interface EntryFormProps {
  submitLabel: string;
  submitting: boolean;
  error: string | null;
  onSubmit: () => void;
  children: ReactNode;
}

export function EntryForm({ submitLabel, submitting, error, onSubmit, children }: EntryFormProps) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <form className="entry-form" onSubmit={submit} noValidate aria-busy={submitting}>
      {children}
      <p className="form-error" role="alert">{error ?? ''}</p>
      <button type="submit" className="button-link button-primary button-block" disabled={submitting}>
        {submitting && <span className="spinner spinner-small" aria-hidden="true" />}
        {submitLabel}
      </button>
    </form>
  );
}

/** Checks made before anything is sent; the server checks the same rules again. */
export function validateEntry(fields: { account: string; password: string; nickname?: string }): string | null {
  if (fields.account.trim().length < 3) return 'Enter your account (at least 3 characters).';
  if (fields.account.trim().length > 64) return 'The account can have at most 64 characters.';
  if (fields.password.length < 6) return 'Enter a password of at least 6 characters.';
  if (fields.password.length > 64) return 'The password can have at most 64 characters.';
  if (fields.nickname !== undefined) {
    const nick = fields.nickname.trim();
    if (nick.length < 1) return 'Choose a nickname.';
    if (nick.length > 24) return 'The nickname can have at most 24 characters.';
  }
  return null;
}
