/**
 * Lets Node run TypeScript with decorator metadata: `node --import toolkit/register app.ts`.
 * Registers the hooks of `ts-loader.hooks.ts`; `toolkit dev` and `toolkit start` use it for the
 * served app, and generated projects can use it in their own scripts.
 *
 * @example
 * // package.json: "scripts": { "serve": "node --import toolkit/register server.ts" }
 */
import { register } from 'node:module';
import { enableCompileCache } from './compile-cache.js';

enableCompileCache();
process.setSourceMapsEnabled(true);
register('./ts-loader.hooks.js', import.meta.url);
