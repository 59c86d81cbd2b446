/** What the start-up shell says when the app's code cannot be fetched. */
export const TEXT_APP_NOT_LOADED = 'The app could not be loaded. Check the connection and try again.';
