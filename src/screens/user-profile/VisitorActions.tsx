/**
 * A profile's actions as a visitor sees them (SPEC §6: login and register only): Follow, Chat
 * and, with a host, Call are there to see, and each opens the sign-up prompt instead of acting,
 * so no request that acts is sent.
 */
import { useState } from 'react';
import { VisitorPromptSheet } from '../../app/VisitorPrompt';

export function VisitorActions({ theyAreHost }: { theyAreHost: boolean }) {
  const [asked, setAsked] = useState(false);
  const ask = () => setAsked(true);
  return (
    <>
      <div className="user-profile-actions">
        <button type="button" className="button-link button-primary" onClick={ask}>Follow</button>
        <button type="button" className="button-link" onClick={ask}>Chat</button>
        {theyAreHost && <button type="button" className="button-link" onClick={ask}>Call</button>}
      </div>
      <VisitorPromptSheet open={asked} onClose={() => setAsked(false)} />
    </>
  );
}
