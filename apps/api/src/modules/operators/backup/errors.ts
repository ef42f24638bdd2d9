/**
 * Why an archive cannot be read or restored, in one line for the operator, with an optional hint: the CLI exits 1
 * with both (cli/src/lib/errors.ts), never as a bug.
 */
export class ArchiveError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ArchiveError';
  }
}
