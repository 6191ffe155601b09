/** Folder under `docs/` where the `rag` template stores uploaded documents: never published. */
export const PRIVATE_DOCUMENTS_DIR = 'documents';

/** Config file names VitePress looks for in `docs/.vitepress/`. */
export const VITEPRESS_CONFIG_FILES = [
  'config.mts',
  'config.ts',
  'config.mjs',
  'config.js',
] as const;

/**
 * `docs/.vitepress/config.mts` for a new docs site: the static build goes to `site/` (next to
 * `docs/`), and uploaded RAG documents under `docs/documents/` are excluded from the site.
 *
 * @example
 * renderVitePressConfig('my-bot');
 */
export function renderVitePressConfig(title: string): string {
  return `import { defineConfig } from 'vitepress';

// Created by \`toolkit docs\`; edit freely, toolkit never overwrites it.
export default defineConfig({
  title: ${JSON.stringify(title)},
  description: ${JSON.stringify(`Documentation of ${title}`)},
  // \`toolkit docs --build\` writes the static site here (relative to docs/).
  outDir: '../site',
  // A RAG app stores uploaded documents in docs/${PRIVATE_DOCUMENTS_DIR}/: they are data, never pages.
  srcExclude: ['${PRIVATE_DOCUMENTS_DIR}/**'],
  themeConfig: {
    nav: [{ text: 'Home', link: '/' }],
    sidebar: [{ text: 'Guide', items: [{ text: 'Overview', link: '/' }] }],
  },
});
`;
}

/**
 * `docs/index.md` for a new docs site.
 *
 * @example
 * renderDocsIndex('my-bot');
 */
export function renderDocsIndex(title: string): string {
  return `# ${title}

Documentation of **${title}**, an HTTP app around large language models built with toolkit.

## Run it locally

\`\`\`sh
npm install
npx toolkit dev
\`\`\`

The app listens on http://127.0.0.1:8000 and restarts when a \`.ts\` file changes.
\`GET /health\` answers \`{ "status": "healthy" }\`.

## Test it

\`\`\`sh
npx toolkit test
\`\`\`

## Write the docs

Add Markdown pages next to this one in \`docs/\`, then run \`npx toolkit docs\` for a live
preview or \`npx toolkit docs --build\` for the static site in \`site/\`.
`;
}
