/**
 * The app's icons: SVG, never emoji glyphs (a device without an emoji font shows empty boxes).
 * They are antd-mobile's own icon set (antd-mobile-icons), each imported from its own module so
 * that a screen carries only the icons it shows, and the two it lacks (a diamond, a bolt) drawn
 * here. An icon is decoration: the button's label or the text beside it says what it means, so
 * each is hidden from assistive technology. Size: 1em, in the colour of the text.
 */
import type { SVGProps } from 'react';
import AddOutline from 'antd-mobile-icons/es/AddOutline';
import CheckOutline from 'antd-mobile-icons/es/CheckOutline';
import CloseOutline from 'antd-mobile-icons/es/CloseOutline';
import GiftOutline from 'antd-mobile-icons/es/GiftOutline';
import LeftOutline from 'antd-mobile-icons/es/LeftOutline';
import LockOutline from 'antd-mobile-icons/es/LockOutline';
import MailOutline from 'antd-mobile-icons/es/MailOutline';
import MinusOutline from 'antd-mobile-icons/es/MinusOutline';
import PhoneFill from 'antd-mobile-icons/es/PhoneFill';
import PlayOutline from 'antd-mobile-icons/es/PlayOutline';
import RightOutline from 'antd-mobile-icons/es/RightOutline';
import StarFill from 'antd-mobile-icons/es/StarFill';
import StarOutline from 'antd-mobile-icons/es/StarOutline';
import TeamOutline from 'antd-mobile-icons/es/TeamOutline';
import UpOutline from 'antd-mobile-icons/es/UpOutline';
import VideoOutline from 'antd-mobile-icons/es/VideoOutline';

export type IconProps = Omit<SVGProps<SVGSVGElement>, 'ref'>;

const HIDDEN = { 'aria-hidden': true, focusable: false } as const;

export const AddIcon = (props: IconProps) => <AddOutline {...HIDDEN} {...props} />;
export const CheckIcon = (props: IconProps) => <CheckOutline {...HIDDEN} {...props} />;
export const CloseIcon = (props: IconProps) => <CloseOutline {...HIDDEN} {...props} />;
export const GiftIcon = (props: IconProps) => <GiftOutline {...HIDDEN} {...props} />;
export const LeftIcon = (props: IconProps) => <LeftOutline {...HIDDEN} {...props} />;
export const LockIcon = (props: IconProps) => <LockOutline {...HIDDEN} {...props} />;
export const MailIcon = (props: IconProps) => <MailOutline {...HIDDEN} {...props} />;
export const MinusIcon = (props: IconProps) => <MinusOutline {...HIDDEN} {...props} />;
export const PhoneIcon = (props: IconProps) => <PhoneFill {...HIDDEN} {...props} />;
export const PlayIcon = (props: IconProps) => <PlayOutline {...HIDDEN} {...props} />;
export const RightIcon = (props: IconProps) => <RightOutline {...HIDDEN} {...props} />;
export const TeamIcon = (props: IconProps) => <TeamOutline {...HIDDEN} {...props} />;
export const UpIcon = (props: IconProps) => <UpOutline {...HIDDEN} {...props} />;
export const VideoIcon = (props: IconProps) => <VideoOutline {...HIDDEN} {...props} />;
/** A star, filled when `filled` (a pinned chat, a chosen rating). */
export const StarIcon = ({ filled, ...props }: IconProps & { filled: boolean }) =>
  (filled ? <StarFill {...HIDDEN} {...props} /> : <StarOutline {...HIDDEN} {...props} />);

/** Diamonds, the app's currency (beside a price). */
export function DiamondIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" className="app-icon" {...HIDDEN} {...props}>
      <path d="M7 3h10l5 6-10 12L2 9l5-6Zm-1.8 6.5 5.3 6.4-2.1-6.4H5.2Zm5.2 0 1.6 5 1.6-5h-3.2Zm5.3 0-2.1 6.4 5.3-6.4h-3.2Z" fillRule="evenodd" />
    </svg>
  );
}

/** A lightning bolt: a match with someone online now. */
export function BoltIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" className="app-icon" {...HIDDEN} {...props}>
      <path d="M13.5 2 4 13.5h6.5L9.5 22 20 9.5h-6.6L13.5 2Z" />
    </svg>
  );
}
