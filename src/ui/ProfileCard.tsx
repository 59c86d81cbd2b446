import type { MineInfo } from '../../machines/ports/session.port';

/** The current user's card (SPEC §2 Mine "card"): avatar, nickname, id, level and VIP. */
export function ProfileCard({ profile }: { profile: MineInfo }) {
  return (
    <div className="profile-card" data-testid="profile-card">
      <img className="avatar" src={profile.icon} alt="" width={64} height={64} />
      <div>
        <p className="profile-name">{profile.nickname}</p>
        <p className="muted">ID {profile.userId} · Lv.{profile.userLevel}{profile.vipInfo.isVip ? ' · VIP' : ''}</p>
      </div>
    </div>
  );
}
