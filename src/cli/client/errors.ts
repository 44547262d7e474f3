/** Exit codes of the client commands (docs/cli.md): 0 success, 1 the API (or the network) said no, 2 usage. */
export const EXIT_API = 1
export const EXIT_USAGE = 2
/** Ctrl-C during a wait: the job keeps running on the server. */
export const EXIT_INTERRUPTED = 130

/** The command line is wrong or incomplete (no URL, no key, a bad value): exit 2. */
export class UsageError extends Error {}

/** The service answered an error (or could not be reached): its message is printed, exit 1. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number | null,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}
