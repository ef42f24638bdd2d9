import { Table } from '../../components/table';
import { defineCommand, reports, withContext } from '../../lib/command';

/** `attestly admin list`. */
export const adminListCommand = defineCommand(
  'list',
  (command) => reports(command, 'List administrators', 'attestly admin list'),
  async (io) => {
    const admins = await withContext(io, async (context) => {
      const { presentAdmin } =
        await import('../../../../apps/api/src/modules/backoffice/accounts/presenters');
      return (await context.services.admins.listAdmins()).map(presentAdmin);
    });
    io.result({ admins }, () => (
      <Table
        columns={['EMAIL', 'NAME', 'STATUS', '2FA', 'LAST SIGN-IN', 'CREATED']}
        rows={admins.map((admin) => [
          admin.email,
          admin.full_name ?? '',
          admin.status,
          admin.totp_enabled ? 'on' : 'not set up',
          admin.last_login?.slice(0, 16).replace('T', ' ') ?? 'never',
          admin.created_at.slice(0, 10),
        ])}
        empty="No administrators yet. Create one: attestly admin create --email you@example.com"
      />
    ));
  },
);
