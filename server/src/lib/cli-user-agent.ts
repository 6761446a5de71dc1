/** CLI_USER_AGENT is the User-Agent the operator CLI sends: the server logs the call's changes as the CLI's. */
export const CLI_USER_AGENT = 'queen-cli';
