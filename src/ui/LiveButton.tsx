/**
 * A host who is live now (SPEC §4 Live state living, as the server's `living` says), where a
 * user sees the host (News → Following, a profile, a chat with the host): a button, labelled
 * for who it is, that opens the host's room (SPEC §2 /liveRoom?anchorId=…).
 */
import { useNavigate } from '@tanstack/react-router';
import { LiveIcon } from './LiveIcon';
import './live-button.css';

export function LiveButton({ hostUserId, nickname }: { hostUserId: number; nickname: string }) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="live-button"
      aria-label={`Watch ${nickname} live`}
      onClick={() => void navigate({ to: '/liveRoom', search: { anchorId: String(hostUserId) } })}
    >
      <LiveIcon size={16} />
      <span>Live</span>
    </button>
  );
}
