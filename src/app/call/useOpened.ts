import { useState } from 'react';

/**
 * Whether a popup of the call screen has been opened yet: it is mounted from its first opening
 * on (and stays, so that it animates closing). A closed popup mounted with the screen cost its
 * render and its animation set-up just as the call connects, when the media needs the phone most.
 */
export function useOpened(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
