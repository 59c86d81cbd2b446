/**
 * What a visitor (SPEC §6: login and register only) sees where a signed-up person would act:
 * a sentence and two buttons, Sign up and Log in, each with its icon, 44 px tall or more.
 */
import './sign-up-prompt.css';

function SignUpIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <circle cx="9" cy="8" r="4" />
      <path d="M2 21c0-4 3-7 7-7s7 3 7 7M19 8v6M16 11h6" />
    </svg>
  );
}

function LogInIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M14 3h5a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-5M3 12h12M11 8l4 4-4 4" />
    </svg>
  );
}

export function SignUpPrompt({ text, onSignUp, onLogIn }: { text: string; onSignUp: () => void; onLogIn: () => void }) {
  return (
    <div className="sign-up-prompt" data-testid="sign-up-prompt">
      <p className="sign-up-prompt-text">{text}</p>
      <div className="sign-up-prompt-actions">
        <button type="button" className="button-link button-primary" onClick={onSignUp}><SignUpIcon /> Sign up</button>
        <button type="button" className="button-link" onClick={onLogIn}><LogInIcon /> Log in</button>
      </div>
    </div>
  );
}
