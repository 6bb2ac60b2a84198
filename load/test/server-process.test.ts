// bench:ref prints how busy the server's main thread was at each load: the figure must follow the
// thread that runs JavaScript, busy or idle, not the process's other threads or the wall clock.
import { expect, test } from 'vitest';
import { startServerProcess } from '../server-process.ts';

// Prints an address, then spins its main thread until it is stopped (a spin bounded by the wall
// clock got only 270-280 ms of CPU in 600 ms on a crowded host).
const spinner = "console.log('listening on http://127.0.0.1:1'); setImmediate(() => { for (;;); });";
const idler = "console.log('listening on http://127.0.0.1:1'); setInterval(() => {}, 1000);";

test.runIf(process.platform === 'linux')('main-thread CPU time grows with a spinning thread and stays flat for an idle one', async () => {
  // The spinner last, so that its spin begins just before the first reading.
  const idle = await startServerProcess(process.execPath, ['-e', idler]);
  const busy = await startServerProcess(process.execPath, ['-e', spinner]);
  try {
    const busyBefore = busy.mainThreadCpuMs()!;
    const idleBefore = idle.mainThreadCpuMs()!;
    await new Promise((resolve) => setTimeout(resolve, 900));
    // A fifth of the 900 ms even when six processes share each core; the idle one stays near nothing.
    expect(busy.mainThreadCpuMs()! - busyBefore).toBeGreaterThan(150);
    expect(idle.mainThreadCpuMs()! - idleBefore).toBeLessThan(100);
  } finally {
    await Promise.all([busy.stop(), idle.stop()]);
  }
  // Once the process is gone there is nothing to read: no figure rather than a wrong one.
  expect(busy.mainThreadCpuMs()).toBeUndefined();
});
