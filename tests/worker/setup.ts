import { applyD1Migrations, env } from 'cloudflare:test';

// Every test file starts from the real schema: the migrations drizzle-kit generated.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
