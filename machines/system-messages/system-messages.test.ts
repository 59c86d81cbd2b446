import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routeSystemMessage } from './system-messages';

describe('[§4 System messages] routing table', () => {
  it.each([
    [{ attachType: -3, type: 0, channelId: 'ch1' }, 'call', { type: 'system.callTargetChannel', channelId: 'ch1' }],
    [{ attachType: -3, type: 1 }, 'call', { type: 'system.callRefused', text: 'The other party has refused.' }],
    [{ attachType: -3, type: 3, channelId: 'ch1', content: 'weak' }, 'call', { type: 'system.callWarning', channelId: 'ch1', text: 'weak' }],
    [{ attachType: -1, content: 'hola' }, 'call', { type: 'system.inCallTranslation', text: 'hola' }],
    [{ attachType: 4, giftId: 7, giftImg: 'https://g/7.png', giftNum: 3 }, 'call', { type: 'system.giftReceived', giftId: 7, giftImg: 'https://g/7.png', giftNum: 3, giftName: '', fromNick: '' }],
    [
      { attachType: 4, giftId: 1, giftImg: '/gifts/rose.svg', giftNum: 2, giftName: 'Rose', channelId: 'ch1', fromYxAccid: 'yx-u', fromNick: 'Alex' },
      'call',
      { type: 'system.giftReceived', giftId: 1, giftImg: '/gifts/rose.svg', giftNum: 2, giftName: 'Rose', fromNick: 'Alex' },
    ],
    [
      { attachType: 17, askId: 4, channelId: 'ch1', giftId: 11, giftName: 'Ring', giftImg: '/gifts/ring.svg', giftPrice: 520, fromYxAccid: 'yx-h', fromNick: 'Sofia' },
      'call',
      { type: 'system.giftAsked', ask: { askId: 4, channelId: 'ch1', giftId: 11, giftName: 'Ring', giftImg: '/gifts/ring.svg', giftPrice: 520, fromNick: 'Sofia' } },
    ],
    [{ attachType: 15, num: 120 }, 'call', { type: 'system.callIncome', amount: 120 }],
    [{ attachType: 18, num: '30' }, 'call', { type: 'system.giftIncome', amount: 30 }],
    [{ attachType: 16 }, 'call', { type: 'system.askGiftRefused', text: 'Asking for a gift was refused' }],
    [{ attachType: 44 }, 'liveRooms', { type: 'system.liveForcedEnd', code: 3 }],
    [{ attachType: 44, code: 3, agoraChannelId: 'live-1-2', endCause: 'heartbeat' }, 'liveRooms', { type: 'system.liveForcedEnd', code: 3, channelId: 'live-1-2' }],
    [{ attachType: 63 }, 'liveRooms', { type: 'system.boosting', on: true }],
    [{ attachType: 64 }, 'liveRooms', { type: 'system.boosting', on: false }],
    [{ attachType: 58 }, 'app', { type: 'system.becameHost' }],
    [{ attachType: -4 }, 'profile', { type: 'system.followerAdded' }],
    [{ attachType: 99, usdtPayStatus: true, usdtOrderNo: 'o1' }, 'wallet', { type: 'system.cryptoPayment', paid: true, orderNo: 'o1' }],
    [{ attachType: 99, usdtPayStatus: false, usdtOrderNo: 'o1' }, 'wallet', { type: 'system.cryptoPayment', paid: false, orderNo: 'o1' }],
  ])('%j → %s', (attach, owner, event) => {
    expect(routeSystemMessage(attach)).toEqual({ routed: true, owner, event });
    // The same content as a JSON string, or wrapped, routes the same.
    expect(routeSystemMessage(JSON.stringify(attach))).toEqual({ routed: true, owner, event });
    expect(routeSystemMessage({ attach: JSON.stringify(attach) })).toEqual({ routed: true, owner, event });
  });

  it.each([
    [{ attachType: 12345 }, /unknown attachType 12345/],
    [{ attachType: -3, type: 9 }, /unknown type 9/],
    [{ attachType: 17, giftId: 11 }, /without askId/],
    [{ attachType: 17, askId: 'x', giftId: 11 }, /without askId/],
    ['{oops', /unreadable/],
    [null, /unreadable/],
    [{ nothing: true }, /without attachType/],
  ])('%j is ignored with a reason', (content, reason) => {
    const routed = routeSystemMessage(content);
    expect(routed.routed).toBe(false);
    if (!routed.routed) expect(routed.reason).toMatch(reason);
  });

  it('never throws, whatever arrives', () => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), fc.string(), fc.object()), (content) => {
      expect(() => routeSystemMessage(content)).not.toThrow();
    }), { numRuns: 1000 });
  });
});
