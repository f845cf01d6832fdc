// Bindings seen by Workers-runtime tests: the Worker's own, plus what vitest.config.ts adds.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}

// Vite's `?raw` imports: a file's text (tests read shopify.app.toml and wrangler.toml this way).
declare module '*?raw' {
  const text: string;
  export default text;
}
