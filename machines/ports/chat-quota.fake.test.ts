/** The chat quota contract against the in-memory fake (its instance is the device's storage). */
import { FakeChatQuotaPort } from './chat-quota.fake';
import { registerChatQuotaContract } from './chat-quota.contract';

registerChatQuotaContract('in-memory fake', () => {
  const port = new FakeChatQuotaPort();
  return { port, reopen: () => port, dispose: () => {} };
});
