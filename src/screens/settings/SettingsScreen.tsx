import { LinkList } from '../../ui/LinkList';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { HELP_LINKS } from '../customer-talk/helpLinks';
import { LogoutButton } from '../mine/LogoutButton';

/** Settings: customer service and feedback (SPEC §2 settings feedBack); host policy and blacklist come with their own issues. */
export default function SettingsScreen() {
  return (
    <ScreenFrame title="Settings" back>
      <LinkList label="Help" items={HELP_LINKS} />
      <div className="page-actions"><LogoutButton /></div>
    </ScreenFrame>
  );
}
