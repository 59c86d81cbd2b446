// @ts-check
/**
 * The dev shell page: lists the accounts and opens the app in phone-sized frames, the way
 * the native shell would open its webview: with the open parameters in the query string.
 * Each frame can be hidden and shown (the shell's app-visibility signal, sent with
 * postMessage to the same origin), reloaded and closed.
 */

const framesEl = /** @type {HTMLElement} */ (document.querySelector('[data-testid="frames"]'));
const listEl = /** @type {HTMLUListElement} */ (document.querySelector('[data-testid="account-list"]'));
const statusEl = /** @type {HTMLElement} */ (document.querySelector('[data-testid="shell-status"]'));
const filterEl = /** @type {HTMLInputElement} */ (document.querySelector('[data-testid="account-filter"]'));

/** Frame numbers are never reused, so test ids stay unambiguous after a close. */
let nextFrame = 1;

/**
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {string} [text]
 */
function el(tag, attrs = {}, text = '') {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

/** @param {string} message */
function report(message) {
  statusEl.textContent = message;
}

/**
 * @param {string} url
 * @param {unknown} body
 */
async function postJson(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  return res.json();
}

/**
 * Adds a phone frame showing `src`.
 * @param {number} n
 * @param {string} caption
 * @param {string} account
 * @param {string} src
 * @param {number | null} userId the account's id, when the frame has one (for "Drop link")
 */
function addFrame(n, caption, account, src, userId = null) {
  const figure = el('figure', { class: 'frame' });
  const iframe = /** @type {HTMLIFrameElement} */ (el('iframe', {
    'data-testid': `frame-${n}`,
    'data-account': account,
    'data-hidden': 'false',
    title: caption,
    allow: 'camera; microphone; autoplay; fullscreen',
    src,
  }));

  /** @param {boolean} hidden */
  const setHidden = (hidden) => {
    iframe.dataset.hidden = String(hidden);
    iframe.contentWindow?.postMessage({ type: 'shell.visibility', hidden }, location.origin);
  };

  /** @type {[string, string, () => void][]} */
  const controls = [
    ['Hide', 'hide', () => setHidden(true)],
    ['Show', 'show', () => setHidden(false)],
    [
      'Reload',
      'reload',
      () => {
        // A reloaded app starts visible.
        iframe.dataset.hidden = 'false';
        iframe.contentWindow?.location.reload();
      },
    ],
    ['Close', 'close', () => figure.remove()],
  ];
  if (userId !== null) {
    // Cuts the account's realtime sockets as a network reset would, to watch the app reconnect.
    controls.splice(3, 0, ['Drop link', 'drop', () => {
      postJson('/shell/api/drop', { userId }).then(
        (/** @type {{ dropped: number }} */ r) => report(`Dropped ${r.dropped} link(s) of ${caption}`),
        (err) => report(`Could not drop the links: ${err instanceof Error ? err.message : String(err)}`),
      );
    }]);
  }
  const bar = el('div', { class: 'controls' });
  for (const [label, id, action] of controls) {
    const button = el('button', { type: 'button', 'data-testid': `${id}-${n}` }, label);
    button.addEventListener('click', action);
    bar.append(button);
  }

  figure.append(el('figcaption', {}, `#${n} ${caption}`), bar, iframe);
  framesEl.append(figure);
  answerStorePayments(figure, iframe);
}

/**
 * The native store's payment sheet (README "Shell contract", Store payments): the app posts
 * `shell.storePay`; Approve confirms the order as the store's server would (the payment
 * sandbox credits it), Decline ends it, Cancel leaves it; the app hears `shell.storeResult`.
 * @param {HTMLElement} figure
 * @param {HTMLIFrameElement} iframe
 */
function answerStorePayments(figure, iframe) {
  window.addEventListener('message', (event) => {
    if (event.source !== iframe.contentWindow || event.origin !== location.origin) return;
    const data = event.data;
    if (!data || data.type !== 'shell.storePay' || typeof data.requestId !== 'string' || typeof data.orderCode !== 'string') return;
    const sheet = el('div', { class: 'store-sheet', role: 'dialog', 'aria-label': 'Store payment', 'data-testid': 'store-sheet' });
    const answer = (/** @type {string} */ outcome, /** @type {string | null} */ sandbox) => async () => {
      sheet.remove();
      if (sandbox) {
        await fetch(`/sandbox/pay/${encodeURIComponent(data.orderCode)}/${sandbox}`, { method: 'POST' }).catch(() => undefined);
      }
      iframe.contentWindow?.postMessage({ type: 'shell.storeResult', requestId: data.requestId, outcome }, location.origin);
      report(`Store payment of order ${data.orderCode}: ${outcome}`);
    };
    sheet.append(el('p', {}, `${data.method === 'applepay' ? 'Apple Pay' : 'Google Pay'}: ${String(data.productId)}`));
    for (const [label, outcome, sandbox] of [['Approve', 'approved', 'pay'], ['Decline', 'declined', 'fail'], ['Cancel', 'cancelled', null]]) {
      const button = el('button', { type: 'button', 'data-testid': `store-${outcome}` }, label);
      button.addEventListener('click', answer(outcome, sandbox));
      sheet.append(button);
    }
    figure.append(sheet);
  });
}

/**
 * Opens the app with the open parameters returned by the server.
 * @param {string} url
 * @param {Record<string, unknown>} body
 * @param {string} caption
 * @param {string} account
 * @param {number | null} userId
 */
async function openWithSession(url, body, caption, account, userId = null) {
  const n = nextFrame++;
  try {
    const params = await postJson(url, { ...body, frame: n });
    addFrame(n, caption, account, '/?' + new URLSearchParams(params).toString(), userId);
    report('');
  } catch (err) {
    report(`Could not open ${caption}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** @typedef {{ userId: number, account: string, nickname: string, userType: number, userLevel: number }} Account */

/** @param {Account[]} accounts */
function renderAccounts(accounts) {
  listEl.replaceChildren();
  for (const a of accounts) {
    const isHost = a.userType === 2;
    const li = el('li', { 'data-search': `${a.nickname} ${a.account}`.toLowerCase() });
    const who = el('span', { class: 'who' }, a.nickname);
    who.append(el('small', {}, `${a.account} · Lv ${a.userLevel}`));
    const badge = el('span', { class: `badge ${isHost ? 'host' : 'user'}` }, isHost ? 'Host' : 'User');
    const open = el('button', { type: 'button', 'data-testid': `open-${a.userId}`, 'aria-label': `Open ${a.nickname}` }, 'Open');
    open.addEventListener('click', () =>
      openWithSession('/shell/api/open', { userId: a.userId }, `${a.nickname} (${isHost ? 'host' : 'user'})`, a.account, a.userId),
    );
    li.append(who, badge, open);
    listEl.append(li);
  }
}

filterEl.addEventListener('input', () => {
  const needle = filterEl.value.trim().toLowerCase();
  for (const li of listEl.children) {
    /** @type {HTMLElement} */ (li).hidden = !(li.getAttribute('data-search') ?? '').includes(needle);
  }
});

document.querySelector('[data-testid="open-no-session"]')?.addEventListener('click', () => {
  addFrame(nextFrame++, 'Without session', '', '/');
});

document.querySelector('[data-testid="open-visitor"]')?.addEventListener('click', () => {
  void openWithSession('/shell/api/visitor', {}, 'Visitor', 'visitor');
});

try {
  const res = await fetch('/shell/api/accounts');
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  renderAccounts(await res.json());
} catch (err) {
  report(`Could not load the accounts: ${err instanceof Error ? err.message : String(err)}`);
}
