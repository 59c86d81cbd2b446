import { ScreenFrame } from '../../ui/ScreenFrame';

/** Profile: the screen frame; its content comes with the issue that owns this screen. */
export default function UserProfileScreen() {
  return <ScreenFrame title="Profile" back />;
}
