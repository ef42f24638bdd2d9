import type { CommandContext } from '../../lib/api';
import { UserError } from '../../lib/errors';

/** The administrator an `--email` names (case-insensitive), or a UserError pointing at `admin list`. */
export async function adminByEmail(context: CommandContext, email: string | undefined) {
  if (!email) throw new UserError('--email is required', 'Name the administrator: --email ops@example.com');
  const admin = await context.services.admins.findByEmail(email);
  if (!admin) throw new UserError(`no administrator with the email ${email}`, 'See `attestly admin list`.');
  return admin;
}
