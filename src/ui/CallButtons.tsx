/**
 * The button that starts an audio call (SPEC §3 signalling action 10), beside the video call
 * where the product offers calls: an SVG icon (antd-mobile-icons) and a visible label, the
 * person's name in its accessible name.
 */
import PhoneFill from 'antd-mobile-icons/es/PhoneFill';
import './call-buttons.css';

export function AudioCallButton({ name, onCall, disabled = false, className = 'button-link' }: {
  name: string;
  onCall: () => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <button type="button" className={`${className} audio-call-button`} aria-label={`Audio call ${name}`} disabled={disabled} onClick={onCall}>
      <PhoneFill aria-hidden /> Audio call
    </button>
  );
}
