import { Command, CommanderError } from 'commander';
import { adminCommand } from './commands/admin';
import { auditCommand } from './commands/audit/verify';
import { backupCommand } from './commands/backup';
import { doctorCommand } from './commands/doctor';
import { keysCommand } from './commands/keys';
import { walletCommand } from './commands/wallet';
import { modelsCommand } from './commands/models/eval';
import { partnerCommand } from './commands/partner';
import { siteCommand } from './commands/site';
import { migrateCommand } from './commands/migrate';
import { serveCommand } from './commands/serve';
import { setupCommand } from './commands/setup';
import { asUserError, EXIT_BUG, EXIT_USER } from './lib/errors';

export const VERSION = '0.1.0';

/** The whole command tree. Each subcommand lives in src/commands/<noun>/<verb>.tsx (STYLE.md). */
export function buildProgram(): Command {
  const program = new Command('attestly')
    .description(
      'Operate an Attestly appliance: setup, serve, migrate, doctor, administrators, partners, keys, audit, backups',
    )
    .version(VERSION)
    .option('--json', 'print one machine-readable JSON document and nothing else')
    .option('--debug', 'verbose logs on stderr, and the stack trace of unexpected errors')
    .option('--data-dir <dir>', 'data directory (overrides ATTESTLY_DATA_DIR)')
    .option('--database-url <url>', 'database URL (overrides DATABASE_URL)')
    .addHelpText(
      'after',
      `
Examples:
  $ attestly setup                       first run: database, public URL, mail, master key, first administrator
  $ attestly admin create --email ops@example.com
  $ attestly doctor --json
  $ attestly backup create --out attestly.backup

Exit codes: 0 ok, 1 the operator's error (with a hint), 2 a bug (rerun with --debug for the stack).
`,
    );
  program.hook('preAction', (_program, action) => {
    const options = action.optsWithGlobals<{ dataDir?: string; databaseUrl?: string }>();
    // The config loader (apps/api/src/config.ts) reads only the environment: flags become environment here.
    if (options.dataDir) process.env.ATTESTLY_DATA_DIR = options.dataDir;
    if (options.databaseUrl) process.env.DATABASE_URL = options.databaseUrl;
  });
  program.addCommand(setupCommand);
  program.addCommand(serveCommand);
  program.addCommand(migrateCommand);
  program.addCommand(doctorCommand);
  program.addCommand(adminCommand());
  program.addCommand(backupCommand());
  program.addCommand(auditCommand());
  program.addCommand(partnerCommand());
  program.addCommand(siteCommand());
  program.addCommand(keysCommand());
  program.addCommand(walletCommand());
  program.addCommand(modelsCommand());
  return program;
}

/** `attestly admin create`, from the command object (the root is `attestly`). */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** The next step after a usage error, by Commander's error code. */
export function commanderHint(error: CommanderError, command: Command): string {
  const path = commandPath(command);
  switch (error.code) {
    case 'commander.unknownCommand':
      return `Run \`${path} --help\` for the list of commands.`;
    case 'commander.unknownOption':
      return `Run \`${path} --help\` for its options; global options such as --data-dir go before the command name.`;
    case 'commander.missingMandatoryOptionValue':
    case 'commander.optionMissingArgument':
    case 'commander.missingArgument':
      return `Run \`${path} --help\` to see what it needs.`;
    case 'commander.invalidArgument':
      return `Run \`${path} --help\` for the accepted values.`;
    default:
      return `Run \`${path} --help\` for usage.`;
  }
}

/** Runs the CLI and resolves with the exit code (main.ts never calls process.exit itself; bin does). */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  // Commander would call process.exit itself; every level throws instead, so this function owns the exit code. The
  // command whose parsing failed is kept: the hint names its own --help.
  let failed: Command = program;
  const override = (command: Command): void => {
    command.exitOverride((error) => {
      failed = command;
      throw error;
    });
    command.commands.forEach(override);
  };
  override(program);
  try {
    await program.parseAsync(argv);
    // Commands that report a failure as their result (doctor, backup verify) set the exit code themselves.
    return Number(process.exitCode ?? 0);
  } catch (error) {
    const json = argv.includes('--json');
    if (error instanceof CommanderError) {
      // --help and --version "fail" with exit code 0. Usage errors were printed by commander ("error: …"); the hint
      // line follows, in the same shape as every other operator error (issue 25 item 9).
      if (error.exitCode === 0) return 0;
      const hint = commanderHint(error, failed);
      if (json) {
        process.stdout.write(
          `${JSON.stringify({ ok: false, error: { message: error.message.replace(/^error: /, ''), hint } }, null, 2)}\n`,
        );
      }
      process.stderr.write(`Hint: ${hint}\n`);
      return EXIT_USER;
    }
    const debug = argv.includes('--debug');
    const userError = asUserError(error);
    if (userError) {
      if (json) {
        process.stdout.write(
          `${JSON.stringify({ ok: false, error: { message: userError.message, hint: userError.hint ?? null } }, null, 2)}\n`,
        );
      } else {
        process.stderr.write(`Error: ${userError.message}\n`);
        if (userError.hint) process.stderr.write(`Hint: ${userError.hint}\n`);
      }
      if (debug) process.stderr.write(`${(error as Error).stack}\n`);
      return EXIT_USER;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (json) {
      process.stdout.write(`${JSON.stringify({ ok: false, error: { message, bug: true } }, null, 2)}\n`);
    }
    process.stderr.write(
      debug && error instanceof Error
        ? `${error.stack}\n`
        : `Unexpected error: ${message}\nThis is a bug in Attestly; rerun with --debug for the stack trace.\n`,
    );
    return EXIT_BUG;
  }
}
