import { Text } from 'ink';
import { defineCommand, examples, withContext } from '../../../lib/command';
import { adminByEmail } from '../shared';

interface ConfirmOptions {
  email: string;
  code: string;
}

/** `attestly admin 2fa confirm`: finishes a `bootstrap --no-confirm` with a code from the authenticator. */
export const admin2faConfirmCommand = defineCommand<ConfirmOptions>(
  'confirm',
  (command) =>
    examples(
      command
        .description('Turn two-factor authentication on with a first code (after `bootstrap --no-confirm`)')
        .requiredOption('--email <email>', 'the administrator')
        .requiredOption('--code <code>', 'a current code from the authenticator'),
      ['attestly admin 2fa confirm --email ops@example.com --code 123456'],
    ),
  async (io, options) => {
    const email = await withContext(io, async (context) => {
      const admin = await adminByEmail(context, options.email);
      await context.services.admins.confirmTotpSetup(admin.id, options.code.trim());
      return admin.email;
    });
    io.result(
      { ok: true, email, totp_enabled: true },
      <Text color="green">{`✔ Two-factor authentication is on for ${email}.`}</Text>,
    );
  },
);
