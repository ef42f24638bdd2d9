import { Text } from 'ink';
import { defineCommand, examples, withContext } from '../../lib/command';
import { adminByEmail } from './shared';

interface DisableOptions {
  email: string;
}

/** `attestly admin disable`: the account can no longer sign in; its sessions end at once. */
export const adminDisableCommand = defineCommand<DisableOptions>(
  'disable',
  (command) =>
    examples(
      command
        .description('Disable an administrator (ends their sessions; they can no longer sign in)')
        .requiredOption('--email <email>', 'the administrator'),
      ['attestly admin disable --email former@example.com'],
    ),
  async (io, options) => {
    const email = await withContext(io, async (context) => {
      const admin = await adminByEmail(context, options.email);
      await context.services.admins.disableAdmin(admin.id);
      return admin.email;
    });
    io.result(
      { ok: true, email, status: 'disabled' },
      <Text>{`✔ ${email} is disabled and signed out everywhere.`}</Text>,
    );
  },
);
