/**
 * Icons are SVG, never emoji glyphs (a device without an emoji font shows empty boxes). They are
 * antd-mobile's own icon set, imported one icon at a time from its module where it is shown
 * (`import CloseOutline from 'antd-mobile-icons/es/CloseOutline'`, drawn `aria-hidden`: the
 * button's label or the text beside it says what it means), so that a screen's chunk carries the
 * icons it shows and no other; a module of them all would put every icon in the first screen's.
 * Here are the two the set lacks (a diamond, a bolt), drawn the same way: 1em, in the text's colour.
 */
import type { SVGProps } from 'react';

export type IconProps = Omit<SVGProps<SVGSVGElement>, 'ref'>;

/** Diamonds, the app's currency (beside a price). */
export function DiamondIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" aria-hidden {...props}>
      <path d="M7 3h10l5 6-10 12L2 9l5-6Zm-1.8 6.5 5.3 6.4-2.1-6.4H5.2Zm5.2 0 1.6 5 1.6-5h-3.2Zm5.3 0-2.1 6.4 5.3-6.4h-3.2Z" fillRule="evenodd" />
    </svg>
  );
}

/** A lightning bolt: a match with someone online now. */
export function BoltIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" aria-hidden {...props}>
      <path d="M13.5 2 4 13.5h6.5L9.5 22 20 9.5h-6.6L13.5 2Z" />
    </svg>
  );
}
