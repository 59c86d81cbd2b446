/**
 * The withdrawal composed with its ports: the load asks for the rules, the collection methods
 * and the balance at once and reads the clock; the apply is the port's.
 */
import { fromPromise } from 'xstate';
import type { ClockPort } from '../ports/clock.port';
import type { WithdrawPort, WithdrawRequest } from '../ports/withdraw.port';
import { withdrawalMachine } from './withdrawal.machine';
import type { WithdrawalLoad, WithdrawalMachine } from './withdrawal.machine';

export interface WithdrawalPorts {
  withdraw: WithdrawPort;
  clock: Pick<ClockPort, 'now'>;
}

export function composeWithdrawal(ports: WithdrawalPorts): WithdrawalMachine {
  return withdrawalMachine.provide({
    actors: {
      load: fromPromise<WithdrawalLoad>(async () => {
        const [config, accounts, balance] = await Promise.all([ports.withdraw.config(), ports.withdraw.accounts(), ports.withdraw.balance()]);
        return { config, accounts, balance, now: ports.clock.now() };
      }),
      apply: fromPromise(({ input }: { input: WithdrawRequest }) => ports.withdraw.apply(input)),
    },
  });
}
