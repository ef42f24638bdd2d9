import { run } from './main';

// The entry point (bundled as dist/attestly.js). serve keeps the process alive: only set the exit code.
const code = await run(process.argv);
if (code !== 0) process.exitCode = code;
