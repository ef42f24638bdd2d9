import { Command } from 'commander';
import type { CommandContext } from './api';
import { createIo, type Io } from './io';

export interface GlobalOptions {
  json?: boolean;
  debug?: boolean;
}

/**
 * Declares a subcommand whose action receives the parsed options, the positional arguments and an Io. Errors are
 * not caught here: they reach main.ts, which maps them onto exit codes.
 */
export function defineCommand<O extends object>(
  name: string,
  describe: (command: Command) => Command,
  handler: (io: Io, options: O, args: string[]) => Promise<void>,
): Command {
  const command = describe(new Command(name));
  command.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    const options = self.optsWithGlobals<O & GlobalOptions>();
    const io = createIo({ json: !!options.json, debug: !!options.debug });
    const args = params.slice(0, -2).filter((value): value is string => typeof value === 'string');
    await handler(io, options, args);
  });
  return command;
}

/** Adds the "Examples:" block to a command's --help. */
export function examples(command: Command, lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/**
 * The description of a command that reports something (a list, a check) and its two examples: as text for a person,
 * and with --json as one document for scripts.
 */
export function reports(command: Command, description: string, invocation: string): Command {
  return examples(command.description(description), [invocation, `${invocation} --json`]);
}

/** Opens the config, database and services for the command, and closes them afterwards. */
export async function withContext<T>(
  io: Io,
  work: (context: CommandContext) => Promise<T>,
  options: { migrate?: boolean | 'skip' } = {},
): Promise<T> {
  const { openCommandContext } = await import('./api');
  const context = await openCommandContext({ debug: io.debug, migrate: options.migrate ?? false });
  try {
    return await work(context);
  } finally {
    await context.close();
  }
}
