/**
 * The gift API of a call (machines/ports/gift.port.ts) over the HTTP contract
 * (src/api/contract/gift.ts): refusals become GiftApiErrors the call's gift machines read; a
 * send that got no answer becomes an UnansweredError (its intent stays open for a retry).
 */
import { GiftApiError } from '../../machines/ports/gift.port';
import type { GiftApiPort } from '../../machines/ports/gift.port';
import { UnansweredError } from '../../machines/shared/intent-key';
import type { ApiClient } from '../api/client';
import { ResultCode } from '../api/codes';
import { askCooldownSecondsOf, askForGift, getGiftList, refuseAskGift, sendGift } from '../api/contract/gift';
import { ApiError, isUnanswered } from '../api/outcome';

/** SPEC §8 1080 'diamond.not.enough', said in words. */
export const TEXT_NOT_ENOUGH_DIAMONDS = 'You do not have enough diamonds.';

const giftErrorOf = (error: unknown): GiftApiError | UnansweredError => {
  const message = error instanceof Error ? error.message : String(error);
  if (isUnanswered(error)) return new UnansweredError(message);
  const code = error instanceof ApiError ? error.detail.code : undefined;
  if (code === ResultCode.balanceInsufficient) return new GiftApiError('balance', TEXT_NOT_ENOUGH_DIAMONDS);
  const seconds = askCooldownSecondsOf(message);
  if (seconds !== null) return new GiftApiError('cooldown', message, seconds * 1000);
  return new GiftApiError('error', message);
};

async function mapped<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw giftErrorOf(error);
  }
}

export function httpGiftApi(api: ApiClient): GiftApiPort {
  return {
    list: (filter) => mapped(async () => {
      const { giftList } = await api.data(getGiftList, filter, { silent: true });
      return giftList.map((c) => ({
        id: c.categoryId,
        name: c.categoryName,
        gifts: c.gifts.map((g) => ({ id: g.id, name: g.name, price: g.giftPrice, smallImg: g.giftSmallImg, icon: g.giftIcon })),
      }));
    }),
    send: (request) => mapped(async () => {
      const sent = await api.data(sendGift, request, { silent: true });
      return { balance: sent.balance, value: sent.value };
    }),
    askFor: (request) => mapped(async () => ({ askId: (await api.data(askForGift, request, { silent: true })).askId })),
    refuseAsk: (askId) => mapped(async () => {
      await api.data(refuseAskGift, { askId }, { silent: true });
    }),
  };
}
