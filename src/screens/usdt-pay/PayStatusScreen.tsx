import { ScreenFrame } from '../../ui/ScreenFrame';

/** Payment status: the screen frame; its content comes with the issue that owns this screen. */
export default function PayStatusScreen() {
  return <ScreenFrame title="Payment status" back />;
}
