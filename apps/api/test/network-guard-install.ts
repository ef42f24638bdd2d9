import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** Where the guard writes; set before it loads so worker threads inherit it through their environment. */
export const guardLog = path.join(os.tmpdir(), `attestly-net-guard-${process.pid}-${Date.now()}.jsonl`);
process.env.ATTESTLY_NET_GUARD_LOG = guardLog;
createRequire(import.meta.url)('./network-guard.cjs');
