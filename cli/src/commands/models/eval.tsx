import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Argument, Command } from 'commander';
import { defineCommand, examples } from '../../lib/command';
import { UserError } from '../../lib/errors';
import { projectRoot } from '../../lib/paths';

const SCRIPTS = { age: 'models/scripts/eval-age.ts', liveness: 'models/scripts/eval-liveness.ts' } as const;

/** `attestly models eval age|liveness [-- args]`: runs the models workspace's own evaluation scripts. */
const evalCommand = defineCommand(
  'eval',
  (command) =>
    examples(
      command
        .description(
          'Evaluate the age or liveness models on the evaluation sets (forwards to models/scripts)',
        )
        .addArgument(new Argument('[which]', 'what to evaluate').choices(['age', 'liveness']).default('age'))
        .argument('[args...]', 'passed on to the script (after --)')
        .allowUnknownOption(),
      ['attestly models eval age', 'attestly models eval liveness -- --help'],
    ),
  async (_io, _options, args) => {
    const which = (args[0] ?? 'age') as keyof typeof SCRIPTS;
    const root = projectRoot();
    const tsx = path.join(root, 'node_modules/.bin/tsx');
    const script = path.join(root, SCRIPTS[which]);
    if (!existsSync(tsx) || !existsSync(script))
      throw new UserError(
        'the evaluation scripts need the repository with its development dependencies',
        'Run `npm ci` in a checkout.',
      );
    const code = await new Promise<number>((resolve) => {
      const child = spawn(tsx, [script, ...args.slice(1)], { cwd: root, stdio: 'inherit' });
      child.once('exit', (status) => resolve(status ?? 1));
    });
    if (code !== 0) process.exitCode = code;
  },
);

export function modelsCommand(): Command {
  return new Command('models').description('On-box vision models').addCommand(evalCommand);
}
