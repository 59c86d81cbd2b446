/** The line that stands for a list (or a section) while it loads, when it failed with a retry, or when it is empty. */
import type { ReactNode } from 'react';
import './list-message.css';

interface ListMessageProps {
  /** Something is loading: a spinner and a polite status. */
  busy?: boolean;
  /** A failure's text; with `onRetry`, a Retry button. */
  error?: string | null;
  onRetry?: () => void;
  children?: ReactNode;
}

export const TEXT_LOAD_FAILED = 'Could not load. Please try again.';

export function ListMessage({ busy = false, error = null, onRetry, children }: ListMessageProps) {
  if (onRetry) {
    return (
      <div className="list-message">
        <p role="alert" className="list-message-error">{error || TEXT_LOAD_FAILED}</p>
        <button type="button" className="button-link" onClick={onRetry}>Retry</button>
      </div>
    );
  }
  return (
    <p className="list-message" role={busy ? 'status' : undefined}>
      {busy && <span className="spinner list-message-spinner" aria-hidden="true" />}
      {children}
    </p>
  );
}
