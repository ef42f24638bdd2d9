import { Command } from 'commander';
import { admin2faBootstrapCommand } from './2fa/bootstrap';
import { admin2faConfirmCommand } from './2fa/confirm';
import { admin2faResetCommand } from './2fa/reset';
import { adminCreateCommand } from './create';
import { adminDisableCommand } from './disable';
import { adminListCommand } from './list';

export function adminCommand(): Command {
  const twoFactor = new Command('2fa')
    .description("Administrators' second factor (TOTP)")
    .addCommand(admin2faBootstrapCommand)
    .addCommand(admin2faConfirmCommand)
    .addCommand(admin2faResetCommand);
  return new Command('admin')
    .description('Back-office administrators: create, list, disable, two-factor setup and reset')
    .addCommand(adminCreateCommand)
    .addCommand(adminListCommand)
    .addCommand(adminDisableCommand)
    .addCommand(twoFactor);
}
