/**
 * Icons are SVG, never emoji glyphs (a device without an emoji font shows empty boxes). Each is
 * decoration (`aria-hidden`): the button's label or the text beside it says what it means.
 *
 * The icons the first screens show (and the close button everywhere) are drawn here, in the line
 * style of the tab bar and the back button: a few dozen bytes each, where the icon set's paths
 * are 0.5 to 1.2 KiB gzip apiece, and this module is in the first screen's chunk (the incoming
 * banner uses it). The others come from antd-mobile's own icon set, imported one icon at a time
 * where they are shown (`import GiftOutline from 'antd-mobile-icons/es/GiftOutline'`), so a
 * screen's chunk carries only the icons it shows. Size: 1em, in the text's colour.
 */
import type { ReactNode, SVGProps } from 'react';

export type IconProps = Omit<SVGProps<SVGSVGElement>, 'ref'>;

/** A 24 × 24 line drawing, 2 wide, round ends. */
function Line({ children, ...props }: IconProps & { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth="2"
      strokeLinecap="round" strokeLinejoin="round" aria-hidden {...props}
    >
      {children}
    </svg>
  );
}

export const CloseIcon = (props: IconProps) => <Line {...props}><path d="M6 6l12 12M18 6 6 18" /></Line>;
export const LeftIcon = (props: IconProps) => <Line {...props}><path d="M15 5l-7 7 7 7" /></Line>;
export const RightIcon = (props: IconProps) => <Line {...props}><path d="M9 5l7 7-7 7" /></Line>;
export const UpIcon = (props: IconProps) => <Line {...props}><path d="M12 19V5M5 12l7-7 7 7" /></Line>;
export const MailIcon = (props: IconProps) => <Line {...props}><rect x="3" y="5" width="18" height="14" rx="2" /><path d="M3 7l9 6 9-6" /></Line>;
export const VideoIcon = (props: IconProps) => <Line {...props}><rect x="2" y="6" width="13" height="12" rx="2" /><path d="M15 10l6-3v10l-6-3" /></Line>;

const STAR = 'M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z';
/** A star, filled when `filled` (a pinned chat, a chosen rating). */
export const StarIcon = ({ filled, ...props }: IconProps & { filled: boolean }) =>
  <Line fill={filled ? 'currentColor' : 'none'} {...props}><path d={STAR} /></Line>;

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
