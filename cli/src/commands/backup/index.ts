import { Command } from 'commander';
import { backupCreateCommand } from './create';
import { backupRestoreCommand } from './restore';
import { backupVerifyCommand } from './verify';

export function backupCommand(): Command {
  return new Command('backup')
    .description('Portable, encrypted, checksummed backups: create, verify, restore')
    .addCommand(backupCreateCommand)
    .addCommand(backupVerifyCommand)
    .addCommand(backupRestoreCommand);
}
