import { ScreenFrame } from '../../ui/ScreenFrame';

/** Secret settings: the screen frame; its content comes with the issue that owns this screen. */
export default function SecretSettingsScreen() {
  return <ScreenFrame title="Secret settings" back />;
}
