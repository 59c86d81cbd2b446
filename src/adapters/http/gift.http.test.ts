/**
 * The gift API over the HTTP contract: shapes mapped, refusals read (SPEC §8 1080, §9 ask
 * cooldown), the send's idempotency key carried, a send without an answer told apart.
 */
import { describe, expect, it } from 'vitest';
import * as port from '../../../machines/ports/gift.port';
import { UnansweredError } from '../../../machines/shared/intent-key';
import * as contract from '../../api/contract/gift';
import { ApiError } from '../../api/outcome';
import { TEXT_NOT_ENOUGH_DIAMONDS, httpGiftApi } from './gift.http';
import { clientAnswering } from './client-answering.testing';

describe('gift API adapter', () => {
  it('the port and the contract agree on the limits', () => {
    expect(port.GIFT_NUM_MAX).toBe(contract.GIFT_NUM_MAX);
    expect(port.ASK_GIFT_COOLDOWN_MS).toBe(contract.ASK_GIFT_COOLDOWN_MS);
    expect(port.GIFT_PRICE_FILTER_MAX).toBe(contract.GIFT_PRICE_FILTER_MAX);
  });

  it('lists categories in the server order with the filter it was given', async () => {
    const { api, seen } = clientAnswering(() => ({
      giftList: [{ categoryId: 1, categoryName: 'Popular', gifts: [{ id: 1, name: 'rose', giftPrice: 1, giftSmallImg: '/s.svg', giftIcon: '/i.svg' }] }],
    }));
    await expect(httpGiftApi(api).list({ minPrice: 1, maxPrice: 10 })).resolves.toEqual([
      { id: 1, name: 'Popular', gifts: [{ id: 1, name: 'rose', price: 1, smallImg: '/s.svg', icon: '/i.svg' }] },
    ]);
    expect(seen).toEqual([['/api/gift/v2/getGiftList', { minPrice: 1, maxPrice: 10 }]]);
  });

  it('1080 is a balance refusal in words; the ask cooldown says how long is left', async () => {
    const { api } = clientAnswering((path) => {
      if (path === contract.sendGift.path) throw new ApiError('code', 'diamond.not.enough', { code: '1080' });
      throw new ApiError('code', contract.TEXT_ASK_COOLDOWN.replace('{s}', '9'), { code: '1000' });
    });
    const gifts = httpGiftApi(api);
    await expect(gifts.send({ channelId: 'c', toUserId: 1, giftId: 1, giftNum: 1, idempotencyKey: 'k-0123456789abcdef' }))
      .rejects.toMatchObject({ refusal: 'balance', message: TEXT_NOT_ENOUGH_DIAMONDS });
    await expect(gifts.askFor({ beAskYxAccid: 'yx', giftId: 1 })).rejects.toMatchObject({ refusal: 'cooldown', retryInMs: 9000 });
  });

  it('sends the intent\'s idempotency key with the gift, as the contract asks', async () => {
    const { api, seen } = clientAnswering(() => ({ giftId: 2, giftNum: 3, giftImg: '/i.svg', value: 6, balance: 94 }));
    const request = { yxRoomId: 'room-1', toUserId: 7, giftId: 2, giftNum: 3, idempotencyKey: 'k-0123456789abcdef' };
    await expect(httpGiftApi(api).send(request)).resolves.toEqual({ balance: 94, value: 6 });
    expect(seen).toEqual([[contract.sendGift.path, request]]);
  });

  it.each([
    ['no connection', new ApiError('network', 'Network Connection Failure')],
    ['a time-out', new ApiError('timeout', 'Network Connection Failure')],
    ['a server failure', new ApiError('http', 'Server Failure', { status: 502 })],
    ['an unreadable answer', new ApiError('malformed', 'The server sent a response the app could not read.')],
  ])('a send with %s is unanswered (it may have been paid), not refused', async (_, failure) => {
    const { api } = clientAnswering(() => { throw failure; });
    const error = await httpGiftApi(api).send({ toUserId: 1, giftId: 1, giftNum: 1, idempotencyKey: 'k-0123456789abcdef' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnansweredError);
    expect(error).toMatchObject({ message: failure.message });
  });

  it('a 4xx answer is a refusal: the server did not take the send', async () => {
    const { api } = clientAnswering(() => { throw new ApiError('http', 'Request Address Error', { status: 404 }); });
    const error = await httpGiftApi(api).send({ toUserId: 1, giftId: 1, giftNum: 1, idempotencyKey: 'k-0123456789abcdef' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(port.GiftApiError);
  });

  it('other refusals keep the server message', async () => {
    const { api } = clientAnswering(() => { throw new ApiError('code', contract.TEXT_ASK_NOT_FOUND, { code: '1000' }); });
    const error = await httpGiftApi(api).refuseAsk(3).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(port.GiftApiError);
    expect(error).toMatchObject({ refusal: 'error', message: contract.TEXT_ASK_NOT_FOUND });
  });

  it.each([
    ['Please wait 3 s before asking for another gift.', 3],
    ['Please wait 0 s before asking for another gift.', null],
    ['Please wait x s before asking for another gift.', null],
    ['Something else', null],
  ])('cooldown text %j → %s', (message, seconds) => {
    expect(contract.askCooldownSecondsOf(message)).toBe(seconds);
  });
});
