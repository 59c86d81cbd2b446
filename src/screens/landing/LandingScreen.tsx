import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectSubmitting } from '../../../machines/app/app.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { ScreenFrame } from '../../ui/ScreenFrame';

/** The welcome page reachable without a session: log in, register or look around as a visitor. */
export default function LandingScreen() {
  const app = useAppActor();
  const submitting = useSelector(app, selectSubmitting);
  return (
    <ScreenFrame title="Welcome">
      <div className="landing">
        <p className="landing-lead">Video calls and live rooms with hosts from around the world.</p>
        <Link to="/login" className="button-link button-primary">Log in</Link>
        <Link to="/register" className="button-link">Create an account</Link>
        <button type="button" className="text-button" disabled={submitting} onClick={() => app.send({ type: 'visitor.enter' })}>
          Continue as a visitor
        </button>
      </div>
    </ScreenFrame>
  );
}
