import type { Plugin } from 'vite';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { ScreenHint } from './src/screens/signed-in-screens';

/** What the gateway reads: for each signed-in path, the chunks and reads to name in its page. */
export type RouteHints = Record<string, { modules: string[]; reads: string[] }>;

/**
 * Writes route-hints.json beside the build: each screen's hint with its
 * module turned into the chunk files it needs (the signed-in shell's, the
 * screen's and what they import statically), leaving out the entry chunk the
 * page loads anyway.
 */
export function routeHints(shellModule: string, screens: Record<string, ScreenHint>): Plugin {
  return {
    name: 'vault-route-hints',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output): output is OutputChunk => output.type === 'chunk');
      const chunkOf = (module: string) => {
        // The chunk that holds the module (its own, or a group's).
        const chunk = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(`/${module}`)));
        if (!chunk) this.error(`route hints: no chunk is built from ${module}`);
        return chunk;
      };
      const hints: RouteHints = {};
      for (const [path, screen] of Object.entries(screens)) {
        const files = new Set<string>();
        collectStaticImports(bundle, chunkOf(shellModule), files);
        collectStaticImports(bundle, chunkOf(screen.module), files);
        hints[path] = { modules: [...files].map((file) => `/${file}`), reads: screen.reads };
      }
      this.emitFile({ type: 'asset', fileName: 'route-hints.json', source: `${JSON.stringify(hints, null, 2)}\n` });
    },
  };
}

function collectStaticImports(bundle: OutputBundle, chunk: OutputChunk, files: Set<string>) {
  if (chunk.isEntry || files.has(chunk.fileName)) return;
  files.add(chunk.fileName);
  for (const imported of chunk.imports) {
    const output = bundle[imported];
    if (output?.type === 'chunk') collectStaticImports(bundle, output, files);
  }
}
