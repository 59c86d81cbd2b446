// @ts-check
/**
 * The dev shell page: lists the accounts and opens the app in phone-sized frames, the way
 * the native shell would open its webview: with the open parameters in the query string.
 * Each frame can be hidden and shown (the shell's app-visibility signal, sent with
 * postMessage to the same origin), reloaded and closed. It also stands in for the operator
 * of withdrawals (a back office in production).
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

/**
 * The operator's stand-in for money out (server/api/withdraw.ts `move`): every host's
 * withdrawals, newest first, with the moves each allows: Processing (from applied), Mark paid
 * and Refuse with a reason (from applied or processing). A refusal returns the amount to the
 * host's income once; paid and refused send the host a system mail.
 */
const withdrawalListEl = /** @type {HTMLUListElement} */ (document.querySelector('[data-testid="withdrawal-list"]'));
const withdrawalsEmptyEl = /** @type {HTMLElement} */ (document.querySelector('[data-testid="withdrawals-empty"]'));

/** @typedef {{ id: number, hostId: number, hostNickname: string, amount: number, fee: number, usd: string, status: string, reason: string, accountLabel: string, createdAt: number }} Withdrawal */

/**
 * @param {number} id
 * @param {'processing' | 'paid' | 'refused'} to
 * @param {string} [reason]
 */
async function moveWithdrawal(id, to, reason) {
  const res = await fetch('/shell/api/withdrawals/move', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(reason === undefined ? { id, to } : { id, to, reason }),
  });
  const body = await res.json().catch(() => ({}));
  report(res.ok ? `Withdrawal #${id}: ${to}` : `Withdrawal #${id} not moved: ${body.error ?? `HTTP ${res.status}`}`);
  await loadWithdrawals();
}

/** @param {Withdrawal[]} list */
function renderWithdrawals(list) {
  withdrawalListEl.replaceChildren();
  withdrawalsEmptyEl.hidden = list.length > 0;
  for (const w of list) {
    const li = el('li', { 'data-testid': `withdrawal-${w.id}`, 'data-status': w.status });
    const what = el('span', {}, `#${w.id} ${w.hostNickname}: ${w.amount} diamonds (US$ ${w.usd}) to ${w.accountLabel}`);
    const state = el('span', { class: 'state', 'data-testid': `withdrawal-status-${w.id}` }, w.reason ? `${w.status}: ${w.reason}` : w.status);
    li.append(what, state);
    if (w.status === 'applied' || w.status === 'processing') {
      const moves = el('div', { class: 'moves' });
      if (w.status === 'applied') {
        const processing = el('button', { type: 'button', 'data-testid': `withdrawal-processing-${w.id}` }, 'Processing');
        processing.addEventListener('click', () => void moveWithdrawal(w.id, 'processing'));
        moves.append(processing);
      }
      const paid = el('button', { type: 'button', 'data-testid': `withdrawal-paid-${w.id}` }, 'Mark paid');
      paid.addEventListener('click', () => void moveWithdrawal(w.id, 'paid'));
      const reason = /** @type {HTMLInputElement} */ (el('input', {
        type: 'text', maxlength: '200', placeholder: 'Reason', 'aria-label': `Reason to refuse #${w.id}`, 'data-testid': `withdrawal-reason-${w.id}`,
      }));
      const refuse = el('button', { type: 'button', 'data-testid': `withdrawal-refuse-${w.id}` }, 'Refuse');
      refuse.addEventListener('click', () => {
        if (!reason.value.trim()) {
          report(`Give a reason to refuse withdrawal #${w.id}.`);
          reason.focus();
          return;
        }
        void moveWithdrawal(w.id, 'refused', reason.value);
      });
      moves.append(paid, reason, refuse);
      li.append(moves);
    }
    withdrawalListEl.append(li);
  }
}

async function loadWithdrawals() {
  try {
    const res = await fetch('/shell/api/withdrawals');
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    // A reason being typed is not wiped by the refresh.
    if (withdrawalListEl.contains(document.activeElement) && document.activeElement?.tagName === 'INPUT') return;
    renderWithdrawals((await res.json()).list);
  } catch (err) {
    report(`Could not load the withdrawals: ${err instanceof Error ? err.message : String(err)}`);
  }
}

document.querySelector('[data-testid="withdrawals-refresh"]')?.addEventListener('click', () => void loadWithdrawals());
void loadWithdrawals();
// New applies show without a click (the page is one developer's, the list is small).
setInterval(() => void loadWithdrawals(), 5_000);

try {
  const res = await fetch('/shell/api/accounts');
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  renderAccounts(await res.json());
} catch (err) {
  report(`Could not load the accounts: ${err instanceof Error ? err.message : String(err)}`);
}
