/**
 * Toasts and dialogs the root actor asks for. The component library brings its animation
 * library along, so it is loaded with the first toast rather than with the first screen.
 */
import { warmLater } from './warmLater';

const library = () => import('../ui/antd');

/** SPEC §9: toasts show for 1.5 to 2 s. */
export const TOAST_MS = 2000;

/**
 * Shows `text` for 2 s. When the component library cannot be loaded (the network or the
 * server is away, and a module that failed to load stays failed), a plain status line
 * says it instead: a toast is how failures are told, so it must not fail itself.
 */
export function showToast(text: string): void {
  library().then(
    ({ Toast }) => { Toast.show({ content: text, duration: TOAST_MS, position: 'center' }); },
    () => plainToast(text),
  );
}

function plainToast(text: string): void {
  const el = document.createElement('div');
  el.className = 'plain-toast';
  el.setAttribute('role', 'status');
  el.textContent = text;
  document.body.append(el);
  window.setTimeout(() => el.remove(), TOAST_MS);
}

/**
 * Loads the component library once the first screen has settled (warmLater.ts), so toasts work
 * even if the network goes away later; one needed before then loads it at once.
 */
export function warmToasts(): void {
  warmLater(() => { library().catch(() => undefined); });
}

/** SPEC §4 system message 58: confirm, then reload so the app starts again as a host. */
export async function confirmBecameHost(): Promise<void> {
  const { Dialog } = await library();
  await Dialog.alert({ content: 'You are now a host. The app will reload.', confirmText: 'OK' });
  window.location.reload();
}
