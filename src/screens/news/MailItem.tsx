/** The pieces of the mail list: one mail, and the line that stands for the list while it loads, fails or is empty. */
import { useId } from 'react';
import type { ReactNode } from 'react';
import type { SysMail } from '../../api/contract/news';

/** PullToRefresh speaks Chinese unless told otherwise. */
export const PULL_TEXTS = {
  pullingText: 'Pull down to refresh',
  canReleaseText: 'Release to refresh',
  refreshingText: 'Refreshing…',
  completeText: 'Up to date',
} as const;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function MailDate({ at }: { at: number }) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return null;
  return <time className="mail-date" dateTime={date.toISOString()}>{dateFormat.format(date)}</time>;
}

/** Title, text and date, all as text: whatever markup a mail carries shows as the characters it is. */
export function MailItem({ mail }: { mail: SysMail }) {
  const titleId = useId();
  return (
    <li className="mail-item">
      <article aria-labelledby={titleId}>
        <h2 id={titleId} className="mail-title">{mail.title}</h2>
        <p className="mail-content">{mail.content}</p>
        <MailDate at={mail.createTime} />
      </article>
    </li>
  );
}

interface ListMessageProps {
  /** Something is loading: a spinner and a polite status. */
  busy?: boolean;
  /** A failure's text; with `onRetry`, a Retry button. */
  error?: string | null;
  onRetry?: () => void;
  children?: ReactNode;
}

export function ListMessage({ busy = false, error = null, onRetry, children }: ListMessageProps) {
  if (onRetry) {
    return (
      <div className="mail-message">
        <p role="alert" className="mail-error">{error || 'Could not load the messages.'}</p>
        <button type="button" className="button-link" onClick={onRetry}>Retry</button>
      </div>
    );
  }
  return (
    <p className="mail-message" role={busy ? 'status' : undefined}>
      {busy && <span className="spinner mail-spinner" aria-hidden="true" />}
      {children}
    </p>
  );
}
