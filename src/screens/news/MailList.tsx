/**
 * The mail views of /news (SPEC §2 message/systemMsg and message/stationMsg; §7
 * /api/sysmail/loadList, 10 a page): one kind of mail, newest first, pulled down to
 * refresh and paged on scroll, bound to its own paged-list actor. Titles and texts come
 * from the server and are shown as text, never as HTML.
 */
import { createPagedListMachine } from '../../../machines/paged-list/paged-list.machine';
import * as news from '../../api/contract/news';
import type { MailType, SysMail } from '../../api/contract/news';
import { useServices } from '../../compose/services';
import { MailItem } from './MailItem';
import { PAGE_SIZE, PagedListView } from './PagedListView';

/** SPEC §9: lists page by 10. */
export const MAIL_PAGE_SIZE = PAGE_SIZE;

const mailListMachine = createPagedListMachine<SysMail>({ keyOf: (mail) => mail.id });

const LABELS: Readonly<Record<MailType, { list: string; empty: string }>> = {
  [news.MailType.system]: { list: 'System messages', empty: 'No system messages yet.' },
  [news.MailType.station]: { list: 'Station messages', empty: 'No station messages yet.' },
};

export interface MailListProps {
  /** MailType.system (message/systemMsg) or MailType.station (message/stationMsg). */
  mailType: MailType;
}

export function MailList({ mailType }: MailListProps) {
  // Another kind of mail is another list: a fresh actor, not the old items under a new label.
  return <MailListOf key={mailType} mailType={mailType} />;
}

function MailListOf({ mailType }: MailListProps) {
  const { api } = useServices();
  const labels = LABELS[mailType];
  return (
    <PagedListView
      label={labels.list}
      empty={labels.empty}
      machine={mailListMachine}
      endText="No more messages"
      load={async (currentPage, pageSize) =>
        (await api.data(news.loadList, { currentPage, pageSize, mailType }, { silent: true })).list}
      render={(mail) => <MailItem key={mail.id} mail={mail} />}
    />
  );
}
