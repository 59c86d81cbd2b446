/**
 * The people port for the profile screens (user profile, own profile, follow counts) and the live
 * room's Follow button: the HTTP adapter (src/adapters/http/people.http.ts) over the app's client
 * and upload. Only those screens import it, so the adapter stays in their chunks.
 */
import type { PeoplePort } from '../../machines/people/people.port';
import { createPeoplePort } from '../adapters/http/people.http';
import type { Services } from './services';

/** `me`: the signed-in person's user id (their own counts). */
export const peoplePortOf = ({ api, upload }: Pick<Services, 'api' | 'upload'>, me: number): PeoplePort => createPeoplePort(api, upload, me);
