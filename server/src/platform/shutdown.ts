import type { Logger } from 'pino';

const SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * stopOnSignals ends the process cleanly on SIGTERM or SIGINT: stop() runs once (a second signal, or a
 * stop longer than 10 s, forces the exit). It returns whether shutdown has begun, for /healthz.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>): () => boolean {
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal: forcing exit');
      process.exit(1);
    }
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error(`shutdown took longer than ${SHUTDOWN_TIMEOUT_MS / 1000} s: forcing exit`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    try {
      await stop();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return () => shuttingDown;
}
