/**
 * The sign-up prompt where a visitor would act (SPEC §6: a visitor may log in and register
 * only): Sign up and Log in end the visitor's session and go to /register or /login
 * (the root actor's visitor.leave). Inline where a whole part of a screen is for signed-up
 * people, or as a sheet opened by the button a visitor tapped.
 */
import { useSelector } from '@xstate/react';
import { selectIsVisitor } from '../../machines/app/app.selectors';
import { TEXT_VISITOR_REFUSED } from '../api/codes';
import { Sheet } from '../ui/Sheet';
import { SignUpPrompt } from '../ui/SignUpPrompt';
import { useAppActor } from './AppActorContext';

export const useIsVisitor = (): boolean => useSelector(useAppActor(), selectIsVisitor);

export function VisitorPrompt({ text = TEXT_VISITOR_REFUSED }: { text?: string }) {
  const app = useAppActor();
  return (
    <SignUpPrompt
      text={text}
      onSignUp={() => app.send({ type: 'visitor.leave', to: '/register' })}
      onLogIn={() => app.send({ type: 'visitor.leave', to: '/login' })}
    />
  );
}

export function VisitorPromptSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Sheet title="Sign up to continue" open={open} onClose={onClose}>
      <VisitorPrompt />
    </Sheet>
  );
}
