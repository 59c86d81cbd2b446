// @vitest-environment jsdom
/**
 * The chat quota contract against the storage adapter (readChatQuota / writeChatQuota, as
 * src/compose/realtime.ts composes them) over jsdom's localStorage, and what the adapter does
 * with a record it cannot read.
 */
import { describe, expect, it } from 'vitest';
import { registerChatQuotaContract } from '../../machines/ports/chat-quota.contract';
import type { ChatQuotaPort } from '../../machines/ports/chat-quota.port';
import { readChatQuota, writeChatQuota } from './storage';

const storageQuota = (): ChatQuotaPort => ({ load: readChatQuota, save: writeChatQuota });

registerChatQuotaContract('storage adapter over localStorage', () => {
  window.localStorage.clear();
  return { port: storageQuota(), reopen: storageQuota, dispose: () => window.localStorage.clear() };
});

describe('chat quota in storage', () => {
  it('an unreadable record is an empty one, and only accounts are kept', () => {
    window.localStorage.setItem('app.chatQuota.alice', '{not json');
    expect(readChatQuota('alice', '2026-11-28')).toEqual([]);
    window.localStorage.setItem('app.chatQuota.alice', '["yx-a"]');
    expect(readChatQuota('alice', '2026-11-28')).toEqual([]);
    window.localStorage.setItem('app.chatQuota.alice', '{"day":"2026-11-28","peers":"yx-a"}');
    expect(readChatQuota('alice', '2026-11-28')).toEqual([]);
    window.localStorage.setItem('app.chatQuota.alice', '{"day":"2026-11-28","peers":["yx-a",5,null,"yx-b"]}');
    expect(readChatQuota('alice', '2026-11-28')).toEqual(['yx-a', 'yx-b']);
    window.localStorage.clear();
  });
});
