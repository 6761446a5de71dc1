/** ConsoleApiError is a failed call, with the server's message and status. */
export class ConsoleApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ConsoleApiError';
  }
}
