import { useSelector } from '@xstate/react';
import { selectProfile } from '../../../machines/app/app.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { LinkList } from '../../ui/LinkList';
import type { LinkListItem } from '../../ui/LinkList';
import { ProfileCard } from '../../ui/ProfileCard';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { FollowCounts } from '../follow-list/FollowCounts';
import { LogoutButton } from './LogoutButton';

/** The Mine page (SPEC §2 card and workspace) with the workspace of the person's role. */
export function MinePage({ workspace }: { workspace: readonly LinkListItem[] }) {
  const profile = useSelector(useAppActor(), selectProfile);
  return (
    <ScreenFrame title="Mine">
      {profile && <ProfileCard profile={profile} />}
      {profile && <FollowCounts userId={profile.userId} />}
      <LinkList label="Workspace" items={workspace} />
      <div className="page-actions"><LogoutButton /></div>
    </ScreenFrame>
  );
}
