/**
 * The IM account the server sends every system notification from (SPEC §4 System messages).
 * No person can log in as it (it has no token), and NetEase stamps a client's own account on
 * whatever the client sends, so a notification from it can only have come from the server.
 */
export const SYSTEM_SENDER_ACCID = 'system';
