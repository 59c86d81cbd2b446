/** The withdrawal password composed with the withdraw port. */
import { fromPromise } from 'xstate';
import type { WithdrawPort } from '../ports/withdraw.port';
import { withdrawPasswordMachine } from './withdraw-password.machine';
import type { PasswordSave, WithdrawPasswordMachine } from './withdraw-password.machine';

export function composeWithdrawPassword(ports: { withdraw: WithdrawPort }): WithdrawPasswordMachine {
  return withdrawPasswordMachine.provide({
    actors: {
      save: fromPromise(({ input }: { input: PasswordSave }) => ports.withdraw.setPassword(input.password, input.oldPassword)),
    },
  });
}
