import { fileURLToPath } from 'node:url';

/** `file:` URL of the module that registers the TypeScript loader (for `node --import`). */
export const REGISTER_URL = new URL('./register.js', import.meta.url).href;

/** Path of the script that serves the user's app in a child process. */
export const SERVE_APP_PATH = fileURLToPath(new URL('./serve-app.js', import.meta.url));
