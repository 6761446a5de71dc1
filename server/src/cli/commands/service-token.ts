// `npm run cli -- service-token`: prints the service token, the one place a secret is printed on purpose.
import type { CliContext } from '../cli-context';

/** serviceTokenCommand prints the token alone on stdout, for the operator to copy. */
export function serviceTokenCommand(context: CliContext): void {
  context.print(context.secrets.serviceToken);
}
