/** The rating of an ended call composed with the call API (the calls' `idle.ended.rating`). */
import { fromPromise } from 'xstate';
import type { CallApiPort, CallRating } from '../ports/call.port';
import { callRatingMachine } from './call-rating.machine';

export function composeCallRating(api: Pick<CallApiPort, 'rate'>) {
  return callRatingMachine.provide({
    actors: { rate: fromPromise<void, CallRating>(({ input }) => api.rate(input)) },
  });
}
