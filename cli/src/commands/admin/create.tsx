import { Text } from 'ink';
import { defineCommand, examples, withContext } from '../../lib/command';
import { UserError } from '../../lib/errors';
import { attestlyFor, shellQuote } from '../setup/steps';
import { askNewPassword, closePrompts, readStdin } from '../../lib/prompt';

interface CreateOptions {
  email: string;
  name?: string;
  passwordStdin?: boolean;
}

/** `attestly admin create`: a back-office account (services.admins.createAdmin: same rules as everywhere). */
export const adminCreateCommand = defineCommand<CreateOptions>(
  'create',
  (command) =>
    examples(
      command
        .description('Create an administrator (the password is prompted, or read from standard input)')
        .requiredOption('--email <email>', 'sign-in email')
        .option('--name <name>', 'full name')
        .option('--password-stdin', 'read the password from standard input instead of prompting'),
      [
        'attestly admin create --email ops@example.com',
        'printf \'%s\' "$ADMIN_PASSWORD" | attestly admin create --email ops@example.com --password-stdin --json',
      ],
    ),
  async (io, options) => {
    let password: string;
    if (options.passwordStdin) {
      password = await readStdin();
    } else if (process.stdin.isTTY) {
      password = await askNewPassword();
    } else {
      throw new UserError('no terminal to prompt for the password', 'Pipe it in with --password-stdin.');
    }
    closePrompts();
    if (!password) throw new UserError('the password is empty');
    const admin = await withContext(io, async (context) => {
      const { presentAdmin } =
        await import('../../../../apps/api/src/modules/backoffice/accounts/presenters');
      return presentAdmin(
        await context.services.admins.createAdmin({
          email: options.email,
          password,
          fullName: options.name ?? null,
        }),
      );
    });
    io.result(
      { ok: true, admin },
      <Text>
        <Text color="green">✔ </Text>
        {`Administrator ${admin.email} created. Next: \`${attestlyFor(process.env.ATTESTLY_DATA_DIR)} admin 2fa bootstrap --email ${shellQuote(admin.email)}\` (or sign in to the back office and set up the authenticator there).`}
      </Text>,
    );
  },
);
