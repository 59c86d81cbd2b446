import { ScreenFrame } from '../../ui/ScreenFrame';

/** Beauty settings: the screen frame; its content comes with the issue that owns this screen. */
export default function BeautySettingsScreen() {
  return <ScreenFrame title="Beauty settings" back />;
}
