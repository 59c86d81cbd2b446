import { ScreenFrame } from '../../ui/ScreenFrame';

/** Follow list: the screen frame; its content comes with the issue that owns this screen. */
export default function FollowListScreen() {
  return <ScreenFrame title="Follow list" back />;
}
