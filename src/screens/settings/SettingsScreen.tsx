import { ScreenFrame } from '../../ui/ScreenFrame';
import { LogoutButton } from '../mine/LogoutButton';

/** Settings; its sub-views (host policy, blacklist, feedback) come with their own issues. */
export default function SettingsScreen() {
  return (
    <ScreenFrame title="Settings" back>
      <div className="page-actions"><LogoutButton /></div>
    </ScreenFrame>
  );
}
