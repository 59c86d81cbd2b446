/**
 * Toasts and dialogs the root actor asks for. The component library brings its animation
 * library along, so it is loaded with the first toast rather than with the first screen.
 */
const library = () => import('../ui/antd');

/** SPEC §9: toasts show for 1.5 to 2 s. */
export function showToast(text: string): void {
  void library().then(({ Toast }) => {
    Toast.show({ content: text, duration: 2000, position: 'center' });
  });
}

/** SPEC §4 system message 58: confirm, then reload so the app starts again as a host. */
export async function confirmBecameHost(): Promise<void> {
  const { Dialog } = await library();
  await Dialog.alert({ content: 'You are now a host. The app will reload.', confirmText: 'OK' });
  window.location.reload();
}
