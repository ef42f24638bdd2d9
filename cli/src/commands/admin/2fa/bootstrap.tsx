import { Box, Text } from 'ink';
import QRCode from 'qrcode';
import { defineCommand, examples, withContext } from '../../../lib/command';
import { UserError } from '../../../lib/errors';
import { ask, closePrompts } from '../../../lib/prompt';
import { adminByEmail } from '../shared';

interface BootstrapOptions {
  email: string;
  code?: string;
  confirm: boolean;
}

/**
 * `attestly admin 2fa bootstrap`: starts TOTP setup (services.admins.beginTotpSetup), shows the otpauth QR code in
 * the terminal with the secret and the backup codes, then enables it with a code from the authenticator.
 * `--no-confirm` only prints (for scripts: confirm later with `admin 2fa confirm`).
 */
export const admin2faBootstrapCommand = defineCommand<BootstrapOptions>(
  'bootstrap',
  (command) =>
    examples(
      command
        .description('Set up the authenticator (TOTP) for an administrator: QR code, secret, backup codes')
        .requiredOption('--email <email>', 'the administrator')
        .option('--code <code>', 'a current code from the authenticator (otherwise prompted)')
        .option(
          '--no-confirm',
          'print the secret and backup codes only; confirm later with `admin 2fa confirm`',
        ),
      [
        'attestly admin 2fa bootstrap --email ops@example.com',
        'attestly admin 2fa bootstrap --email ops@example.com --no-confirm --json',
      ],
    ),
  async (io, options) => {
    await withContext(io, async (context) => {
      const admin = await adminByEmail(context, options.email);
      if (admin.totp_enabled_at)
        throw new UserError(
          `${admin.email} already has two-factor authentication`,
          `To replace it (lost phone), run \`attestly admin 2fa reset --email ${admin.email}\` first.`,
        );
      const setup = await context.services.admins.beginTotpSetup(admin.id);
      const setupDoc = {
        email: admin.email,
        secret: setup.secret,
        otpauth_url: setup.otpauth_url,
        backup_codes: setup.backup_codes,
      };
      if (!options.confirm) {
        io.result({ ok: true, confirmed: false, ...setupDoc }, () => (
          <SetupDetails {...setupDoc} qr={null} />
        ));
        return;
      }
      if (!io.json) {
        const qr = await QRCode.toString(setup.otpauth_url, { type: 'terminal', small: true });
        io.result(null, () => <SetupDetails {...setupDoc} qr={qr} />);
      }
      const code = options.code ?? (await ask('Code from the authenticator app:'));
      closePrompts();
      await context.services.admins.confirmTotpSetup(admin.id, code.trim());
      io.result(
        { ok: true, confirmed: true, ...setupDoc },
        <Text color="green">{`✔ Two-factor authentication is on for ${admin.email}.`}</Text>,
      );
    });
  },
);

export function SetupDetails({
  email,
  secret,
  otpauth_url,
  backup_codes,
  qr,
}: {
  email: string;
  secret: string;
  otpauth_url: string;
  backup_codes: string[];
  qr: string | null;
}) {
  return (
    <Box flexDirection="column">
      <Text bold>{`Two-factor setup for ${email}`}</Text>
      {qr ? <Text>{qr}</Text> : null}
      <Text>Scan the QR code with an authenticator app, or enter the secret by hand:</Text>
      <Text>
        {'  Secret: '}
        <Text bold color="cyan">
          {secret}
        </Text>
      </Text>
      <Text dimColor>{`  ${otpauth_url}`}</Text>
      <Text> </Text>
      <Text bold>Backup codes (each works once; store them somewhere safe — they are not shown again):</Text>
      {backup_codes.map((code) => (
        <Text key={code}>{`  ${code}`}</Text>
      ))}
    </Box>
  );
}
