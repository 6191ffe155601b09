/** Why the app module could not give a servable app; the message is one line for the user. */
export class AppLoadError extends Error {
  override readonly name = 'AppLoadError';
}
