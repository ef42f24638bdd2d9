import { Box, Text } from 'ink';
import { CheckLine } from '../components/table';
import { defineCommand, examples } from '../lib/command';
import { EXIT_USER } from '../lib/errors';

interface DoctorOptions {
  quick?: boolean;
}

/** `attestly doctor`: every installation check (apps/api/src/modules/operators/doctor) with pass/warn/fail and a fix. */
export const doctorCommand = defineCommand<DoctorOptions>(
  'doctor',
  (command) =>
    examples(
      command
        .description(
          'Check this installation: config, database, migrations, keys, models, mail, disk, public URL',
        )
        .option('--quick', 'skip the timed test inference (which loads the vision models)'),
      ['attestly doctor', 'attestly doctor --quick --json'],
    ),
  async (io, options) => {
    const { runDoctor } = await import('../../../apps/api/src/modules/operators/doctor/service');
    const checks = await runDoctor({ inference: !options.quick });
    const failed = checks.filter((check) => check.status === 'fail').length;
    const warned = checks.filter((check) => check.status === 'warn').length;
    io.result({ ok: failed === 0, failed, warned, checks }, () => (
      <Box flexDirection="column">
        {checks.map((check) => (
          <CheckLine
            key={check.id}
            status={check.status}
            name={check.name}
            detail={check.detail}
            hint={check.hint}
          />
        ))}
        <Text> </Text>
        <Text color={failed ? 'red' : warned ? 'yellow' : 'green'}>
          {failed
            ? `${failed} check(s) failed, ${warned} warning(s).`
            : warned
              ? `All essential checks passed, ${warned} warning(s).`
              : 'All checks passed.'}
        </Text>
      </Box>
    ));
    if (failed) process.exitCode = EXIT_USER;
  },
);
