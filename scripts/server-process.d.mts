// Types for scripts/server-process.mjs (imported by the TypeScript benchmarks).
export const root: string;
export const SERVER_EXEC_ARGV: string[];
export const SERVER_SCRIPT: string;
export const CLUSTER_SCRIPT: string;
export function serverCommand(env?: NodeJS.ProcessEnv): string[];
