/** The host's wallet composed with the withdraw port. */
import { fromPromise } from 'xstate';
import type { WithdrawPort } from '../ports/withdraw.port';
import { hostWalletMachine } from './host-wallet.machine';
import type { HostWalletMachine } from './host-wallet.machine';

export function composeHostWallet(ports: { withdraw: WithdrawPort }): HostWalletMachine {
  return hostWalletMachine.provide({ actors: { summary: fromPromise(() => ports.withdraw.summary()) } });
}
