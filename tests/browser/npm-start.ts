import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Runs `npm start` (PORT / EMULATOR_PORT as in the environment) in its own process group and resolves
 * with the authenticated admin URL it prints; `stop` ends the whole group (npx, wrangler, the emulator).
 */
export async function startProduct(): Promise<{ adminUrl: string; stop: () => Promise<void> }> {
  const child = spawn('npm', ['start'], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const adminUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`npm start printed no admin URL:\n${out.slice(-2000)}`)), 200_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Admin:\s+(http\S+authToken=\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out.slice(-2000)}`)));
  });
  return { adminUrl, stop: () => stopGroup(child) };
}

async function stopGroup(child: ChildProcess) {
  if (child.pid === undefined || child.exitCode !== null) return;
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
