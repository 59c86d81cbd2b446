import { ScreenFrame } from '../../ui/ScreenFrame';

/** Edit profile: the screen frame; its content comes with the issue that owns this screen. */
export default function ProfileScreen() {
  return <ScreenFrame title="Edit profile" back />;
}
