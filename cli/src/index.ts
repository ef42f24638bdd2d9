import { run } from './main';

// oidc-provider warns at import on Node 20 (it prefers 22); the server logs it at start, commands need not repeat it.
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('oidc-provider WARNING: Unsupported runtime')) return;
  warn(...args);
};

// The entry point (bundled as dist/attestly.js). serve keeps the process alive: only set the exit code.
const code = await run(process.argv);
if (code !== 0) process.exitCode = code;
