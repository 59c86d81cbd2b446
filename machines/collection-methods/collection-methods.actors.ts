/** The collection methods composed with the withdraw port: the load asks for the methods and the rules at once. */
import { fromPromise } from 'xstate';
import type { AccountDraft } from '../codes/withdraw.codes';
import type { WithdrawPort } from '../ports/withdraw.port';
import { collectionMethodsMachine } from './collection-methods.machine';
import type { CollectionMethodsLoad, CollectionMethodsMachine } from './collection-methods.machine';

export function composeCollectionMethods(ports: { withdraw: WithdrawPort }): CollectionMethodsMachine {
  return collectionMethodsMachine.provide({
    actors: {
      load: fromPromise<CollectionMethodsLoad>(async () => {
        const [accounts, config] = await Promise.all([ports.withdraw.accounts(), ports.withdraw.config()]);
        return { accounts, config };
      }),
      save: fromPromise(({ input }: { input: AccountDraft }) => ports.withdraw.addAccount(input)),
    },
  });
}
