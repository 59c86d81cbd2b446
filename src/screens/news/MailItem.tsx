/** One mail of the mail list, and the pull-to-refresh texts. */
import { useId } from 'react';
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
