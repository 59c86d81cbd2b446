import { Link } from '@tanstack/react-router';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { VisitorButton } from '../login/VisitorButton';

/** The welcome page reachable without a session: log in, register or look around as a visitor. */
export default function LandingScreen() {
  return (
    <ScreenFrame title="Welcome">
      <div className="landing">
        <p className="landing-lead">Video calls and live rooms with hosts from around the world.</p>
        <Link to="/login" className="button-link button-primary">Log in</Link>
        <Link to="/register" className="button-link">Create an account</Link>
        <VisitorButton />
      </div>
    </ScreenFrame>
  );
}
