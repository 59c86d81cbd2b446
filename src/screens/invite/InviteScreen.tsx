import { ScreenFrame } from '../../ui/ScreenFrame';

/** Invite: the screen frame; its content comes with the issue that owns this screen. */
export default function InviteScreen() {
  return <ScreenFrame title="Invite" back />;
}
