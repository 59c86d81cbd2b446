import { useSelector } from '@xstate/react';
import { selectLoadError } from '../../machines/app/app.selectors';
import { useAppActor } from './AppActorContext';

/** The profile could not be loaded: say why, offer a retry and a way out. */
export function ProfileFailed() {
  const app = useAppActor();
  const reason = useSelector(app, selectLoadError);
  return (
    <section className="centered-panel" role="alert" aria-labelledby="profile-failed-title">
      <h1 id="profile-failed-title" className="screen-title">We couldn't load your profile</h1>
      {reason && <p className="muted">{reason}</p>}
      <button type="button" className="button-link button-primary" onClick={() => app.send({ type: 'session.retry' })}>Try again</button>
      <button type="button" className="text-button" onClick={() => app.send({ type: 'session.logOut' })}>Log out</button>
    </section>
  );
}
