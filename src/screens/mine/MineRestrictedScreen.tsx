import { useSelector } from '@xstate/react';
import { selectProfile } from '../../../machines/app/app.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { LinkList } from '../../ui/LinkList';
import { ProfileCard } from '../../ui/ProfileCard';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { LogoutButton } from './LogoutButton';

const WORKSPACE = [
  { to: '/wallet', label: 'Wallet' },
  { to: '/followList', label: 'Follow list' },
  { to: '/profile', label: 'Edit profile' },
  { to: '/settings', label: 'Settings' },
] as const;

export default function MineRestrictedScreen() {
  const profile = useSelector(useAppActor(), selectProfile);
  return (
    <ScreenFrame title="Mine">
      {profile && <ProfileCard profile={profile} />}
      <LinkList label="Workspace" items={WORKSPACE} />
      <div className="page-actions"><LogoutButton /></div>
    </ScreenFrame>
  );
}
