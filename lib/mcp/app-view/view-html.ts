// The diagnostics MCP App view: a small HTML document (styles inline) and one script, which hosts
// load from this server into their sandboxed frame. esbuild bundles the view's entry once per
// process, on first use, from the same sources as the embeddable component.
import "server-only";
import { createHash } from "node:crypto";
import path from "node:path";
import type { Plugin } from "esbuild";

const ENTRY = "app/components/diagnostics/_mcp-app/main.tsx";

let cached: Promise<ViewBundle> | undefined;

/** The view's bundle, built on first use and kept for the life of the process. */
export function diagnosticsViewBundle(): Promise<ViewBundle> {
  cached ??= buildDiagnosticsView().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

/**
 * Keeps the bundle under 150 kB gzipped (React alone is ~60 kB, the MCP SDK and zod ~110 kB):
 * - zod's `locales` namespace (every language's messages, ~90 kB) stays out: the SDK's
 *   `import * as z` keeps it, nothing reads it, and zod imports its English default on its own;
 * - the MCP SDK packages declare no `sideEffects`; their modules have none, so what the view does
 *   not use is dropped (~20 kB gzipped);
 * - the component's React code renders through preact/compat (~50 kB gzipped less than react-dom).
 */
const smallerBundle: Plugin = {
  name: "vetdx-smaller-bundle",
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: "zod-locales", namespace: "empty" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "export {}", loader: "js" }));
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "sdk" || !args.path.startsWith("@modelcontextprotocol/")) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: "sdk",
      });
      return resolved.errors.length ? undefined : { path: resolved.path, sideEffects: false };
    });
  },
};

export interface ViewBundle {
  /** The view's script, served at /mcp-app/<file>. */
  script: string;
  file: string;
  style: string;
}

export async function buildDiagnosticsView(root = process.cwd()): Promise<ViewBundle> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [path.join(root, ENTRY)],
    absWorkingDir: root,
    bundle: true,
    write: false,
    outdir: "mcp-app",
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    jsx: "automatic",
    loader: { ".module.css": "local-css" },
    alias: {
      react: "preact/compat",
      "react-dom/client": "preact/compat/client",
      "react-dom": "preact/compat",
      "react/jsx-runtime": "preact/jsx-runtime",
    },
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
    plugins: [smallerBundle],
  });
  const script = result.outputFiles.find((file) => file.path.endsWith(".js"))?.text ?? "";
  const style = result.outputFiles.find((file) => file.path.endsWith(".css"))?.text ?? "";
  const hash = createHash("sha256").update(script).digest("hex").slice(0, 16);
  return { script, file: `diagnostics-${hash}.js`, style };
}

/**
 * The view's document: its styles inline, its script from this server (the resource's CSP names
 * this origin in resourceDomains). Hosts pass a read result through their own limits, and the
 * script alone is ~440 kB: a small document keeps resources/read small.
 */
export function viewDocument(bundle: ViewBundle, appUrl: string): string {
  const src = new URL(`/mcp-app/${bundle.file}`, appUrl).href;
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>VetDx diagnostics</title>",
    `<style>${bundle.style.replace(/<\/style/gi, "<\\/style")}</style>`,
    "</head>",
    "<body>",
    '<div id="root"></div>',
    `<script src="${src}"></script>`,
    "</body>",
    "</html>",
  ].join("\n");
}
