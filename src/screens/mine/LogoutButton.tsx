import { Button } from 'antd-mobile';
import { Dialog } from '../../ui/antd';
import { useAppActor } from '../../app/AppActorContext';

/** Logs out after a confirmation; the root actor clears the token and every stored item. */
export function LogoutButton() {
  const app = useAppActor();
  const confirm = async () => {
    const ok = await Dialog.confirm({ content: 'Log out of this account?', confirmText: 'Log out', cancelText: 'Cancel' });
    if (ok) app.send({ type: 'session.logOut' });
  };
  return <Button block color="danger" fill="outline" onClick={() => void confirm()}>Log out</Button>;
}
