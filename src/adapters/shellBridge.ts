/**
 * The dev shell (server/shell) stands in for the native shell. It cannot hide an iframe
 * from the page's point of view, so it posts `{ type: 'shell.visibility', hidden }` and
 * this bridge turns that into the page's own visibility change: `document.visibilityState`
 * and `document.hidden` follow it and `visibilitychange` fires, exactly as when the native
 * app goes to the background. Only same-origin messages from the parent are accepted.
 */
export function installShellVisibilityBridge(): void {
  if (window.parent === window) return;
  let hidden: boolean | null = null;
  const real = {
    state: Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState'),
    hidden: Object.getOwnPropertyDescriptor(Document.prototype, 'hidden'),
  };
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => (hidden === null ? real.state?.get?.call(document) : hidden ? 'hidden' : 'visible'),
  });
  Object.defineProperty(document, 'hidden', {
    configurable: true,
    get: () => (hidden === null ? real.hidden?.get?.call(document) : hidden),
  });
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (event.source !== window.parent || event.origin !== window.location.origin) return;
    const data = event.data as { type?: unknown; hidden?: unknown } | null;
    if (data?.type !== 'shell.visibility' || typeof data.hidden !== 'boolean') return;
    if (hidden === data.hidden) return;
    hidden = data.hidden;
    document.dispatchEvent(new Event('visibilitychange'));
  });
}
