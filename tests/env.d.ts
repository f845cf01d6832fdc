// Bindings seen by Workers-runtime tests: the Worker's own, plus what vitest.config.ts adds.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}
