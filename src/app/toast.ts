/**
 * SPEC §9: toasts show for 1.5 to 2 s. The component library's Toast brings its animation
 * library along, so it is loaded with the first toast rather than with the first screen.
 */
export function showToast(text: string): void {
  void import('../ui/antd').then(({ Toast }) => {
    Toast.show({ content: text, duration: 2000, position: 'center' });
  });
}
