import { ScreenFrame } from '../../ui/ScreenFrame';

/** Go live: the screen frame; its content comes with the issue that owns this screen. */
export default function LiveSettingScreen() {
  return <ScreenFrame title="Go live" back />;
}
