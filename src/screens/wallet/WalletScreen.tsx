import { ScreenFrame } from '../../ui/ScreenFrame';

/** Wallet: the screen frame; its content comes with the issue that owns this screen. */
export default function WalletScreen() {
  return <ScreenFrame title="Wallet" back />;
}
