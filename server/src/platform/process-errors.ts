import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';

/**
 * logProcessErrors keeps one stray promise from taking the server down: an unhandled rejection is a bug,
 * logged with its stack, while every other request goes on being served. An uncaught exception may have
 * left state half-changed, so it is logged and ends the process (exit 1) for the supervisor to restart.
 */
export function logProcessErrors(logger: Logger, target: EventEmitter = process): void {
  target.on('unhandledRejection', (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection (a bug: please report it with this line)');
  });
  target.on('uncaughtException', (error: Error) => {
    logger.fatal({ err: error }, 'uncaught exception: exiting');
    process.exit(1);
  });
}
