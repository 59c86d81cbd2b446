import { ScreenFrame } from '../../ui/ScreenFrame';

/** USDT payment: the screen frame; its content comes with the issue that owns this screen. */
export default function UsdtPayScreen() {
  return <ScreenFrame title="USDT payment" back />;
}
