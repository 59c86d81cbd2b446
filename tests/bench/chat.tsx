/**
 * The chat rendering bench page (built by tests/bench/vite.config.ts, driven by
 * tests/bench/chat.bench.mjs). `?scenario=chats` renders the real ConversationList over a real
 * conversations actor whose fake ports answer 200 sessions and their profiles;
 * `?scenario=messages` renders the real MessageList with 10,000 messages as the talk screen
 * shows them (TalkMessageView rows), opened at the bottom as a chat opens. Both sit in the
 * app's own frame and CSS, so layout is what the phone does.
 *
 * First render: the app column is up with another screen (as when a tab is switched); from just
 * before the list's screen is rendered to the paint of the first frame that has the list's rows
 * (for messages: the newest message) in the DOM. A rAF callback runs just before a frame is
 * painted; a message posted from it is handled right after that paint.
 * `?wait` holds the start until the driver calls `window.benchGo()`. The results are on
 * `window.bench`; `window.bench.scroll()` scrolls the list in steps and reports long tasks, the
 * longest frame, DOM size and rendered rows.
 */
import { createActor, waitFor } from 'xstate';
import { composeConversations } from '../../machines/conversations/conversations.actors';
import { ConversationList } from '../../src/screens/news/ConversationList';
import { talkMachine } from '../../machines/talk/talk.machine';
import { MessageList } from '../../src/screens/talk/TalkConversation';
import { TalkMessageView } from '../../src/screens/talk/TalkExtras';
import type { ReactNode } from 'react';
import { ScreenFrame } from '../../src/ui/ScreenFrame';
import { SESSIONS, benchConversations, benchMessages, benchPins, benchProfiles } from './chat.data';
import { measureScroll, mountStage, rowsOf } from './page';
import type { ScrollResult } from './page';

export interface ScrollOptions {
  steps: number;
  /** Pixels per step; without it the steps cover the whole list. */
  stepPx?: number;
}

export type { ScrollResult };

export interface BenchPage {
  scenario: string;
  firstRenderMs: number;
  domNodes: number;
  rowsRendered: number;
  rowsTotal: number;
  scroll: (options: ScrollOptions) => Promise<ScrollResult>;
}

/** Where the driver reads the page (kept off the global Window type: other bench pages have their own). */
const exposed = window as Window & { bench?: BenchPage; benchError?: string; benchGo?: () => void };

const params = new URLSearchParams(window.location.search);
const scenario = params.get('scenario') ?? 'chats';

interface Scenario {
  screen: ReactNode;
  list: () => HTMLElement | null;
  scroller: () => HTMLElement | null;
  /** True once the first screenful the person should see is in the DOM. */
  ready: () => boolean;
  /** Chats open at the top and are read downwards; a conversation opens at the bottom and is read upwards. */
  upwards: boolean;
}

async function chats(): Promise<Scenario> {
  const conversations = createActor(composeConversations({
    im: { conversations: async () => benchConversations(), markRead: async () => {} },
    lookupProfiles: async (accounts) => benchProfiles(accounts),
    loadPins: () => benchPins,
    savePins: () => {},
  }), { input: { account: 'me', isVip: true } }).start();
  // The session keeps the list loaded and looked up; /news opens on it ready (no 1 s debounce here).
  conversations.send({ type: 'conversations.reload' });
  await waitFor(conversations, (s) => s.matches('ready'));
  conversations.send({ type: 'conversations.lookup' });
  await waitFor(conversations, (s) => s.matches({ ready: 'idle' }) && Object.keys(s.context.profiles).length === SESSIONS);
  const list = () => document.querySelector<HTMLElement>('ol[aria-label="Chats"]');
  return {
    screen: (
      <ScreenFrame key="news" title="News">
        <ConversationList
          conversations={conversations}
          talkPath={(row) => ({ to: '/talk', search: { to: row.to, taPath: 'news' } })}
        />
      </ScreenFrame>
    ),
    list,
    scroller: () => document.querySelector<HTMLElement>('.screen-body'),
    ready: () => (list()?.querySelectorAll(':scope > li').length ?? 0) > 0,
    upwards: false,
  };
}

function messages(): Scenario {
  const all = benchMessages();
  // The rows the talk screen shows (a Translate control under the peer's texts reads the talk); its own
  // children are the machine's stand-ins, so nothing is fetched.
  const talk = createActor(talkMachine, { input: { peer: 'peer', account: 'me' } }).start();
  const list = () => document.querySelector<HTMLElement>('ol[aria-label="Messages"]');
  return {
    // TalkScreen's layout: a frame with a back button, the list above the composer.
    screen: (
      <ScreenFrame key="talk" title="Chat with peer" back>
        <div className="talk">
          <MessageList
            messages={all}
            complete
            loadingOlder={false}
            onTop={() => {}}
            renderMessage={(m) => <TalkMessageView talk={talk} message={m} />}
          />
          <form className="talk-composer" onSubmit={(e) => e.preventDefault()}>
            <div className="talk-field"><input className="field-input" aria-label="Message" placeholder="Type a message" /></div>
            <button type="submit" className="button-link button-primary" disabled>Send</button>
          </form>
        </div>
      </ScreenFrame>
    ),
    list,
    scroller: () => document.querySelector<HTMLElement>('[data-testid="talk-scroller"]'),
    ready: () => list()?.querySelector(`:scope > li[data-index="${all.length - 1}"]`) != null,
    upwards: true,
  };
}

/** Scrolls the list in `steps` jumps (end to end, or `stepPx` each), one per two frames, and reports what it cost. */
async function scroll(s: Scenario, { steps, stepPx }: ScrollOptions): Promise<ScrollResult> {
  const el = s.scroller();
  if (!el) throw new Error('no scroller');
  const from = el.scrollTop;
  return measureScroll(el, steps, (i) => {
    if (stepPx) return from + (s.upwards ? -stepPx : stepPx) * i;
    // The list's height changes as rows are measured: aim at the share of what it is now.
    const max = el.scrollHeight - el.clientHeight;
    return s.upwards ? max * (1 - i / steps) : max * (i / steps);
  }, () => rowsOf(s.list()));
}

async function main() {
  // With ?wait the driver says when to start: after it has throttled this very page (a navigation
  // may move the page to another renderer process, which would not be throttled yet).
  if (params.has('wait')) await new Promise<void>((resolve) => { exposed.benchGo = resolve; });
  const s = scenario === 'messages' ? messages() : await chats();
  // A chat is opened from the chat list, whose previews already showed its texts and emoji.
  const stage = await mountStage('News', '/talk', scenario === 'messages' ? 'Peer: see you soon 😊 👍' : 'News');
  const firstRenderMs = await stage.show(s.screen, s.ready);
  exposed.bench = {
    scenario,
    firstRenderMs,
    domNodes: document.getElementsByTagName('*').length,
    ...rowsOf(s.list()),
    scroll: (options) => scroll(s, options),
  };
}

main().catch((error: unknown) => {
  exposed.benchError = error instanceof Error ? `${error.message}\n${error.stack}` : String(error);
});
