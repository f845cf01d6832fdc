/** Types of dev-workers.mjs (plain JS: `npm start` runs it with node, without a TypeScript loader). */
export function readDevVars(file?: string): Record<string, string>;
export function devWorkerArgs(options: { root?: string; dir: string; vars?: Record<string, string> }): string[];
