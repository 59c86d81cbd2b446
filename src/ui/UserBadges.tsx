/**
 * A person's badges beside their name (SPEC §3 Live chat record isVip, isNewUser, userLevel):
 * VIP, New and the level (shown above 0). Text, not colour alone, says what each is.
 */
import './live-parts.css';

export function UserBadges({ isVip, isNewUser, userLevel }: { isVip: boolean; isNewUser: boolean; userLevel: number }) {
  if (!isVip && !isNewUser && userLevel <= 0) return null;
  return (
    <span className="user-badges">
      {isVip && <span className="user-badge user-badge-vip" data-badge="vip">VIP</span>}
      {isNewUser && <span className="user-badge user-badge-new" data-badge="new">New</span>}
      {userLevel > 0 && (
        <span className="user-badge user-badge-level" data-badge="level" aria-label={`Level ${userLevel}`}>{`Lv${userLevel}`}</span>
      )}
    </span>
  );
}
