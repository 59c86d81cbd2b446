/**
 * The home list's port for the home screen: the HTTP adapter (src/adapters/http/home.http.ts)
 * over the app's client, taking the answers the start asked for early. Only the home screen
 * imports it, so the adapter stays in the home's chunk.
 */
import type { HomePort } from '../../machines/home-list/home-list.port';
import { createHomePort } from '../adapters/http/home.http';
import type { Services } from './services';

export const homePortOf = ({ api, early }: Pick<Services, 'api' | 'early'>): HomePort => createHomePort(api, early);
