/**
 * Store payments (applepay, googlepay) go through the native shell (README "Shell contract",
 * Store payments): `window.AppShell.storePay({ orderCode, productId, method })` answers
 * 'approved', 'declined' or 'cancelled'. The dev shell (server/shell), which holds the app in a
 * same-origin frame, answers the same through messages: the app posts `shell.storePay` to its
 * parent and the shell answers `shell.storeResult` with the request's id. With neither, the
 * answer is 'unavailable' (SPEC §8 'no pay').
 */
import type { StoreOutcome, StorePay, StorePayment } from '../../machines/ports/wallet.port';

type NativeStorePay = (payment: StorePayment) => Promise<unknown>;

const OUTCOMES: readonly StoreOutcome[] = ['approved', 'declined', 'cancelled'];
const outcomeOf = (value: unknown): StoreOutcome => (OUTCOMES.includes(value as StoreOutcome) ? (value as StoreOutcome) : 'declined');

let requests = 0;

export function createStorePay(win: Window = window): StorePay {
  return async (payment) => {
    const native = (win as Window & { AppShell?: { storePay?: NativeStorePay } }).AppShell?.storePay;
    if (typeof native === 'function') return outcomeOf(await native(payment));
    // The dev shell: a same-origin parent frame.
    let sameOriginParent = false;
    try {
      sameOriginParent = win.parent !== win && win.parent.location.origin === win.location.origin;
    } catch {
      sameOriginParent = false;
    }
    if (!sameOriginParent) return 'unavailable';
    const requestId = `store-${++requests}`;
    return new Promise<StoreOutcome>((resolve) => {
      const onMessage = (event: MessageEvent<unknown>) => {
        if (event.source !== win.parent || event.origin !== win.location.origin) return;
        const data = event.data as { type?: unknown; requestId?: unknown; outcome?: unknown } | null;
        if (data?.type !== 'shell.storeResult' || data.requestId !== requestId) return;
        win.removeEventListener('message', onMessage);
        resolve(outcomeOf(data.outcome));
      };
      win.addEventListener('message', onMessage);
      win.parent.postMessage({ type: 'shell.storePay', requestId, ...payment }, win.location.origin);
    });
  };
}
