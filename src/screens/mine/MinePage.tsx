import { useSelector } from '@xstate/react';
import { selectProfile } from '../../../machines/app/app.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { VisitorPrompt, useIsVisitor } from '../../app/VisitorPrompt';
import { LinkList } from '../../ui/LinkList';
import type { LinkListItem } from '../../ui/LinkList';
import { ProfileCard } from '../../ui/ProfileCard';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { HELP_LINKS } from '../customer-talk/helpLinks';
import { FollowCounts } from '../follow-list/FollowCounts';
import { LogoutButton } from './LogoutButton';
import { WalletCard } from './WalletCard';

const TEXT_VISITOR_MINE = 'Sign up or log in for your wallet, the people you follow and your profile.';

/** The Mine page (SPEC §2 card and workspace) with the workspace of the person's role; a visitor's asks them to sign up. */
export function MinePage({ workspace }: { workspace: readonly LinkListItem[] }) {
  const profile = useSelector(useAppActor(), selectProfile);
  const visitor = useIsVisitor();
  return (
    <ScreenFrame title="Mine">
      {profile && <ProfileCard profile={profile} />}
      {visitor ? <VisitorPrompt text={TEXT_VISITOR_MINE} /> : (
        <>
          {profile && <FollowCounts userId={profile.userId} />}
          <WalletCard />
          <LinkList label="Workspace" items={workspace} />
          <LinkList label="Help" items={HELP_LINKS} />
        </>
      )}
      <div className="page-actions"><LogoutButton /></div>
    </ScreenFrame>
  );
}
