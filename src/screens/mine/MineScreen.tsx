import { useSelector } from '@xstate/react';
import { selectProfile } from '../../../machines/app/app.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { LinkList } from '../../ui/LinkList';
import { ProfileCard } from '../../ui/ProfileCard';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { LogoutButton } from './LogoutButton';

/** The host's workspace: the pages of a host's working day (SPEC §6 host role). */
const WORKSPACE = [
  { to: '/liveSetting', label: 'Go live' },
  { to: '/wallet', label: 'Wallet' },
  { to: '/task', label: 'Tasks' },
  { to: '/dailyTask', label: 'Daily tasks' },
  { to: '/dataStatistics', label: 'Data statistics' },
  { to: '/invite', label: 'Invite' },
  { to: '/pointsRank', label: 'Points ranking' },
  { to: '/rank', label: 'Ranking' },
  { to: '/beautySettings', label: 'Beauty settings' },
  { to: '/followList', label: 'Follow list' },
  { to: '/profile', label: 'Edit profile' },
  { to: '/settings', label: 'Settings' },
] as const;

export default function MineScreen() {
  const profile = useSelector(useAppActor(), selectProfile);
  return (
    <ScreenFrame title="Mine">
      {profile && <ProfileCard profile={profile} />}
      <LinkList label="Workspace" items={WORKSPACE} />
      <div className="page-actions"><LogoutButton /></div>
    </ScreenFrame>
  );
}
