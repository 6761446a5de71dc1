import { z } from 'zod';
import { blankAsUndefined, count } from './env-values';

/**
 * FunctionsEnvShape lists the settings of backend functions (merged into ServerEnvSchema): where Deno is,
 * how many processes run, how long and how large one call may be, and the loopback address functions use
 * to reach this server's API.
 */
export const FunctionsEnvShape = {
  /** DENO_PATH names a Deno binary to use instead of the one the `deno` npm package installed. */
  DENO_PATH: z.preprocess(blankAsUndefined, z.string().min(1).optional()),
  /** FUNCTION_INSTANCES is how many processes one function may run for concurrent calls. */
  FUNCTION_INSTANCES: count(2, 32),
  /** FUNCTION_MAX_PROCESSES caps the function processes of the server (the idlest is stopped for a new one). */
  FUNCTION_MAX_PROCESSES: count(20, 500),
  /** FUNCTION_TIMEOUT_S is how long one call may take before 504 and its process is killed. */
  FUNCTION_TIMEOUT_S: count(60, 3600),
  /** FUNCTION_MEMORY_MB is a function process's V8 heap limit. */
  FUNCTION_MEMORY_MB: count(256, 16_384),
  /**
   * FUNCTION_PROCESS_MEMORY_MB bounds a function process's private memory (RLIMIT_DATA): every isolate
   * reserves ~512 MB of it (1536: the main one and one Worker), ArrayBuffers count too; FUNCTION_MEMORY_MB
   * bounds one isolate's heap.
   */
  FUNCTION_PROCESS_MEMORY_MB: count(1536, 65_536),
  /** FUNCTION_MAX_OPEN_FILES bounds a function process's descriptors (RLIMIT_NOFILE): its sockets. */
  FUNCTION_MAX_OPEN_FILES: count(256, 65_536),
  /** FUNCTIONS_MAX_CONNECTIONS bounds the open connections of all functions to this server's API. */
  FUNCTIONS_MAX_CONNECTIONS: count(256, 100_000),
  /**
   * AUTOMATION_CLAIM_GRACE_S is how long past FUNCTION_TIMEOUT_S a claimed automation job stays its
   * instance's: a job whose instance died is run again by another once the claim lapses.
   */
  AUTOMATION_CLAIM_GRACE_S: count(60, 3600),
  /** AUTOMATION_CONCURRENCY is how many automation runs go at once (each of a different automation). */
  AUTOMATION_CONCURRENCY: count(4, 64),
  /** AUTOMATION_MAX_QUEUED caps the queued runs of one automation: beyond it the newest are dropped (logged). */
  AUTOMATION_MAX_QUEUED: count(500, 1_000_000),
  /** AUTOMATION_MAX_QUEUED_PER_SOURCE caps the queued runs one trigger source (an entity) feeds, over its automations. */
  AUTOMATION_MAX_QUEUED_PER_SOURCE: count(1000, 1_000_000),
  /** FUNCTION_IDLE_S is how long an unused process lives before the reaper stops it. */
  FUNCTION_IDLE_S: count(300, 86_400),
  /** FUNCTION_MAX_BODY_MB bounds a request body passed to a function. */
  FUNCTION_MAX_BODY_MB: count(50, 1024),
  /**
   * FUNCTIONS_API_HOST is the loopback address functions reach this server's API on (the server listens
   * there too): every other loopback and private address is denied to them.
   */
  FUNCTIONS_API_HOST: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .regex(/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/, 'must be a 127.x.y.z address')
      .default('127.0.0.44'),
  ),
  /** FUNCTIONS_WATCH restarts functions when their files change (`on`/`off`; unset: on when NODE_ENV is unset or `development`). */
  FUNCTIONS_WATCH: z.preprocess(blankAsUndefined, z.enum(['on', 'off']).optional()),
  /** FUNCTIONS_DENO_DIR is Deno's cache of `npm:` packages (default `DATA_DIR/deno`); may be shared. */
  FUNCTIONS_DENO_DIR: z.preprocess(blankAsUndefined, z.string().min(1).optional()),
};
