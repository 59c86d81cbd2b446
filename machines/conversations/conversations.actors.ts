/** The conversation list composed with its ports (IM, profile lookups, saved pins). */
import { fromPromise } from 'xstate';
import type { ImPort } from '../ports/im.port';
import type { PinsPort } from '../ports/pins.port';
import type { ChatProfile, ProfilesPort } from '../ports/profiles.port';
import { MAX_SESSIONS, conversationsMachine, groupsOf } from './conversations.machine';

export interface ConversationsPorts {
  im: Pick<ImPort, 'conversations' | 'markRead'>;
  /** Profiles and online status of at most 100 accounts (SPEC §7 batchQueryYxStat); missing ones are left out. */
  profiles: Pick<ProfilesPort, 'lookup'>;
  /** The pinned session ids saved for an account, and saving them. */
  pins: PinsPort;
}

export function composeConversations({ im, profiles, pins }: ConversationsPorts) {
  return conversationsMachine.provide({
    actors: {
      load: fromPromise(async ({ input: { account } }) => ({
        conversations: await im.conversations(MAX_SESSIONS),
        pinned: pins.load(account),
      })),
      // Groups of 100, one after another; a group that fails leaves its accounts at the defaults.
      lookup: fromPromise(async ({ input: { accounts } }) => {
        const found: Record<string, ChatProfile> = {};
        let failures = 0;
        for (const group of groupsOf(accounts)) {
          try {
            Object.assign(found, await profiles.lookup(group));
          } catch (error) {
            failures++;
            if (failures === groupsOf(accounts).length) throw error;
          }
        }
        return found;
      }),
      // Spawned, nobody waits for it: a mark that fails (offline) is made again at the next read.
      markRead: fromPromise(async ({ input: { id } }) => {
        try {
          await im.markRead(id);
        } catch {
          // Nothing to undo: the unread count stays on the server until the next read.
        }
      }),
    },
    actions: {
      savePins: ({ context }) => pins.save(context.account, context.pinned),
    },
  });
}
