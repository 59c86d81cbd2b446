/** What the live room says in its own words (the machines' texts come from their .types files). */
export const TEXT_ENTERING_ROOM = 'Entering the live room…';
export const TEXT_LIVE_ENDED = 'This live has ended.';
export const TEXT_HOST_IN_PRIVATE_CALL = 'The host is in a private call';
export const TEXT_HOST_AWAY_WAIT = 'The live will continue when the host is back.';
export const TEXT_VIDEO_LOST = 'The video was lost.';
export const TEXT_VIDEO_WAITING = 'Waiting for the host’s video…';
export const TEXT_GOING_LIVE = 'Going live…';
export const TEXT_ENDING_LIVE = 'Ending the live…';
export const TEXT_LIVE_OVER = 'Your live has ended.';
export const TEXT_BOOSTING = 'Boosting exposure';
/** SPEC §4 Live state, as the host reads it. */
export const LIVE_STATE_TEXT = {
  empty: 'Not live',
  living: 'Live',
  liveCalling: 'In a private call',
  waitingReturnLive: 'Returning to live…',
} as const;
