import { Text } from 'ink';
import { defineCommand, examples, withContext } from '../../../lib/command';
import { adminByEmail } from '../shared';

interface ResetOptions {
  email: string;
}

/** `attestly admin 2fa reset`: for a lost authenticator; the next sign-in sets a new one up. */
export const admin2faResetCommand = defineCommand<ResetOptions>(
  'reset',
  (command) =>
    examples(
      command
        .description(
          "Remove an administrator's second factor and backup codes (lost phone); ends their sessions",
        )
        .requiredOption('--email <email>', 'the administrator'),
      ['attestly admin 2fa reset --email ops@example.com'],
    ),
  async (io, options) => {
    const email = await withContext(io, async (context) => {
      const admin = await adminByEmail(context, options.email);
      await context.services.admins.resetTotp(admin.id);
      return admin.email;
    });
    io.result(
      { ok: true, email, totp_enabled: false },
      <Text>{`✔ Two-factor authentication for ${email} was reset. Set it up again: attestly admin 2fa bootstrap --email ${email}`}</Text>,
    );
  },
);
