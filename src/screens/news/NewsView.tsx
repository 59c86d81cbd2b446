/**
 * The content of /news (hosts) and /newsRestricted (non-hosts), SPEC §2: the chats and the
 * system and station mail, as tabs. The chat list belongs to the session (it is kept while
 * signed in); the mail lists load when their tab is first opened.
 */
import { useSelector } from '@xstate/react';
import { Component, Suspense, useEffect, useId, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import type { ChatRow } from '../../../machines/conversations/conversations.selectors';
import { selectBanner, selectConversations, selectSession } from '../../../machines/session/session.selectors';
import * as news from '../../api/contract/news';
import { useAppActor } from '../../app/AppActorContext';
import { lazyComponent, retryFailedLoads } from '../../app/lazyComponent';
import { VisitorPrompt, useIsVisitor } from '../../app/VisitorPrompt';
import { ListMessage } from '../../ui/ListMessage';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { TabStrip } from '../../ui/TabStrip';
import { ConversationList } from './ConversationList';
import './news.css';

/**
 * The lists behind the other tabs (and the component library their pull-to-refresh and
 * paging come from) are not part of the screen's first view, the chats: they load when the
 * app is next idle, and at the latest when their tab is first opened.
 */
const loadMail = () => import('./MailList');
const loadLists = () => import('./NewsLists');
const MailList = lazyComponent(() => loadMail().then((m) => ({ default: m.MailList })));
const FollowingList = lazyComponent(() => loadLists().then((m) => ({ default: m.FollowingList })));
const CallRecordList = lazyComponent(() => loadLists().then((m) => ({ default: m.CallRecordList })));

function useWarmTabLists(): void {
  useEffect(() => {
    const load = () => { Promise.all([loadMail(), loadLists()]).catch(() => undefined); };
    const w = window as { requestIdleCallback?: (fn: () => void) => number; cancelIdleCallback?: (id: number) => void };
    if (w.requestIdleCallback) {
      const id = w.requestIdleCallback(load);
      return () => w.cancelIdleCallback?.(id);
    }
    const timer = window.setTimeout(load, 2000);
    return () => window.clearTimeout(timer);
  }, []);
}

/** A tab whose list could not be fetched (no network) says so in its panel; the other tabs stay usable. */
class TabLoadFailed extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    // Try again fetches the list's code again (lazyComponent); the page is not reloaded.
    const retry = () => {
      retryFailedLoads();
      this.setState({ failed: false });
    };
    return <ListMessage error="This list could not be loaded. Check the connection and try again." onRetry={retry} />;
  }
}

const TABS = [
  { id: 'chats', label: 'Messages' },
  { id: 'system', label: 'System messages' },
  { id: 'station', label: 'Station messages' },
  { id: 'follows', label: 'Following' },
  { id: 'records', label: 'Call records' },
] as const;
type TabId = (typeof TABS)[number]['id'];
/** The tabs that need a signed-up account (chats, follows, calls): a visitor sees the sign-up prompt there. */
const MEMBER_TABS: ReadonlySet<TabId> = new Set(['chats', 'follows', 'records']);
const TEXT_VISITOR_NEWS = 'Sign up or log in to chat with hosts, follow them and call them.';

export function NewsView() {
  const app = useAppActor();
  const session = useSelector(app, selectSession);
  const conversations = useSelector(session, selectConversations);
  const banner = useSelector(session, selectBanner);
  const customerService = useSelector(banner, (s) => s?.context.customerServiceId ?? null);
  const visitor = useIsVisitor();
  const [tab, setTab] = useState<TabId>('chats');
  // A tab's panel stays mounted once opened, so its list and position are kept.
  const [opened, setOpened] = useState<ReadonlySet<TabId>>(new Set(['chats']));
  const baseId = useId();
  useWarmTabLists();

  const select = (id: TabId) => {
    setTab(id);
    setOpened((set) => new Set(set).add(id));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const index = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(index + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
    select(next.id);
    // The strip brings the tab into view (TabStrip), clear of its chevrons.
    document.getElementById(`${baseId}-tab-${next.id}`)?.focus({ preventScroll: true });
  };
  const talkPath = (row: ChatRow) =>
    row.to === customerService ? { to: '/customer-talk' } : { to: '/talk', search: { to: row.to, taPath: 'news' } };

  return (
    <ScreenFrame title="News">
      <TabStrip label="News" className="news-tabs" selected={tab} onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`${baseId}-tab-${t.id}`}
            type="button"
            role="tab"
            className="news-tab"
            aria-selected={tab === t.id}
            aria-controls={`${baseId}-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => select(t.id)}
          >
            {t.label}
          </button>
        ))}
      </TabStrip>
      {TABS.filter((t) => opened.has(t.id)).map((t) => (
        <div
          key={t.id}
          id={`${baseId}-panel-${t.id}`}
          role="tabpanel"
          aria-labelledby={`${baseId}-tab-${t.id}`}
          hidden={tab !== t.id}
        >
          {visitor && MEMBER_TABS.has(t.id) ? <VisitorPrompt text={TEXT_VISITOR_NEWS} /> : t.id === 'chats' ? (
            conversations && <ConversationList conversations={conversations} talkPath={talkPath} customerService={customerService} />
          ) : (
            <TabLoadFailed>
              <Suspense fallback={<ListMessage busy>Loading…</ListMessage>}>
                {t.id === 'system' && <MailList mailType={news.MailType.system} />}
                {t.id === 'station' && <MailList mailType={news.MailType.station} />}
                {t.id === 'follows' && <FollowingList />}
                {t.id === 'records' && <CallRecordList />}
              </Suspense>
            </TabLoadFailed>
          )}
        </div>
      ))}
    </ScreenFrame>
  );
}
