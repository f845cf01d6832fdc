/** Types of environments.mjs (plain JS: the operations scripts run with node, without a TypeScript loader). */
export const WORKER_CONFIGS: string[];
export const LIFECYCLE_FILE: string;
export const PLACEHOLDER_D1_ID: string;
export type EnvironmentResources = {
  env: string;
  workers: { config: string; name: string }[];
  d1: { name: string; id: string };
  bucket: string;
  queues: string[];
  secrets: string[];
  appUrl: string | undefined;
};
export function environmentResources(env: string, root?: string): EnvironmentResources;
export function secretNames(root?: string): string[];
export function withDatabaseId(text: string, env: string, id: string): string;
