import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build, preview, type PreviewServer } from 'vite';
import { freePort } from '../../../apps/cli/test/support/cli-process.js';

/** The React page driven by `@ai-sdk/react`'s `useChat` (index.html and main.tsx). */
export const USE_CHAT_PAGE = fileURLToPath(new URL('../../front-end/use-chat/', import.meta.url));

/**
 * Builds the page with Vite into `outDir`: JSX through Vite's esbuild (`jsx: 'automatic'`, the
 * React 17+ runtime), no plugin and no config file, React and the AI SDK bundled from this
 * repository's node_modules. A production build: React's StrictMode does not run effects twice.
 */
export async function buildUseChatPage(outDir: string): Promise<void> {
  await build({
    root: USE_CHAT_PAGE,
    configFile: false,
    logLevel: 'error',
    esbuild: { jsx: 'automatic' },
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: {
        onwarn: (warning, warn) => {
          // React Server Components' "use client" in swr and comments placed where Rollup
          // cannot read them in zod: harmless in a client bundle, noise in the test output.
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'INVALID_ANNOTATION') {
            return;
          }
          warn(warning);
        },
      },
    },
  });
}

/** The page served in front of an app, and how to stop serving it. */
export interface UseChatFrontEnd {
  /** The page's origin, e.g. `http://127.0.0.1:43124`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the built page with Vite's preview server and proxies `/api` to the app, so the page
 * and the app share one origin (the app's session cookie is first-party, no CORS) as they
 * would behind one host in production.
 */
export async function serveUseChatPage(outDir: string, appUrl: string): Promise<UseChatFrontEnd> {
  const port = await freePort();
  const server: PreviewServer = await preview({
    root: USE_CHAT_PAGE,
    configFile: false,
    logLevel: 'error',
    build: { outDir },
    preview: {
      host: '127.0.0.1',
      port,
      strictPort: true,
      proxy: {
        '/api': {
          target: appUrl,
          configure: (proxy) => {
            // http-proxy aborts the upstream request only on the client request's 'aborted'
            // event, which Node no longer emits once the body was read (every POST here): a
            // client that stops reading (useChat's Stop) must close the app's stream too, as
            // nginx and other proxies do.
            proxy.on('proxyReq', (upstream, _req: IncomingMessage, res: ServerResponse) => {
              res.on('close', () => {
                if (!res.writableFinished) upstream.destroy();
              });
            });
          },
        },
      },
    },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => server.close(),
  };
}
