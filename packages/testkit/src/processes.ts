/**
 * Services as owned process groups on 127.0.0.1: started, awaited until ready, stopped with their
 * whole tree. A missing binary fails at once with its install command, never a long wait.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

import { LOOPBACK } from './constants';
import { installHint, requireExecutable } from './prerequisites';
import { processCpuSeconds, profileEvent, profiling, reapedChildrenCpuSeconds } from './profile';

export interface Service {
  name: string;
  pid: number;
  /** The last ~100 KB of the service's stdout and stderr. */
  output(): string;
  /** Signals the whole process group (default SIGTERM) and resolves when it has exited. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
  killNow(): void;
  /** Resolves when the process has exited, with its exit code or the signal that ended it. */
  waitForExit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Ready once this shows in the output... */
  readyLine?: RegExp;
  /** ...or once this port accepts connections (with neither, as soon as it is spawned). */
  readyPort?: number;
  timeoutMs?: number;
  /** Called with each line of its output (stdout and stderr), e.g. to show it on a terminal. */
  echo?: (line: string) => void;
  /** Called if it exits after it was ready without stop() (a dev server that died). */
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

const live = new Set<Service>();

// Backstop: a test runner that exits without calling stop() must not leave services running.
process.once('exit', () => {
  for (const service of live) service.killNow();
});

/**
 * The second backstop, for a runner that dies without running 'exit' handlers (a fatal V8 error,
 * SIGKILL): a detached shell that ends the service's process group once this process is gone.
 * It ends itself with the service.
 */
function watchdog(group: number): ChildProcess {
  const guard = spawn(
    '/bin/sh',
    [
      '-c',
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -KILL -${group} 2>/dev/null`,
    ],
    { stdio: 'ignore', detached: true },
  );
  guard.on('error', () => undefined); // no shell: only the 'exit' backstop then
  guard.unref();
  return guard;
}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections on host:port. */
export function portAnswers(port: number, host: string = LOOPBACK): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Spawns `command` in its own process group and resolves once `readyLine` shows in its output
 * or `readyPort` accepts connections. Rejects (and kills it) on early exit or timeout, with the
 * tail of its output so the cause is visible; a command that is not installed is refused before
 * anything is spawned, with the command that installs it.
 */
export function spawnService(options: SpawnOptions): Promise<Service> {
  const {
    name,
    command,
    args = [],
    env = {},
    cwd,
    readyLine,
    readyPort,
    timeoutMs = 60_000,
    echo,
    onExit,
  } = options;
  try {
    requireExecutable(command, name);
  } catch (error) {
    return Promise.reject(error);
  }
  const began = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const guard = child.pid === undefined ? undefined : watchdog(child.pid);
    child.once('exit', () => guard?.kill('SIGKILL'));
    let output = '';
    let settled = false;
    let stopping = false;
    let partialLine = '';
    // A child that never started (spawn error) has no pid and emits no 'exit': nothing to wait for.
    let exited = child.pid === undefined;
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
      child.once('exit', (code, signal) => done({ code, signal }));
      child.once('error', () => {
        if (child.pid === undefined) done({ code: null, signal: null });
      });
    });
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (echo) {
        const lines = (partialLine + chunk.toString()).split('\n');
        partialLine = lines.pop() ?? '';
        for (const line of lines) echo(line);
      }
      if (output.length > 200_000) output = output.slice(-100_000);
      if (!settled && readyLine && readyLine.test(output)) ready();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);

    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const service: Service = {
      name,
      pid: child.pid ?? -1,
      output: () => output,
      killNow: () => killGroup('SIGKILL'),
      waitForExit: () => exit,
      stop: (signal = 'SIGTERM', graceMs = 5000) =>
        new Promise<void>((done) => {
          stopping = true;
          live.delete(service);
          if (exited) return done();
          const stopBegan = Date.now();
          if (profiling() && child.pid !== undefined) {
            profileEvent({ kind: 'service-life', name, cpu: processCpuSeconds(child.pid) });
          }
          const force = setTimeout(() => killGroup('SIGKILL'), graceMs);
          child.once('exit', () => {
            clearTimeout(force);
            profileEvent({ kind: 'service-stop', name, wall: (Date.now() - stopBegan) / 1000 });
            done();
          });
          killGroup(signal);
        }),
    };
    live.add(service);

    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      void service.stop('SIGKILL', 0).then(() => {
        reject(new Error(`${name}: ${message}\n${output.slice(-3000)}`.trimEnd()));
      });
    };
    function ready() {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      if (profiling() && child.pid !== undefined) {
        const cpu = processCpuSeconds(child.pid);
        profileEvent({ kind: 'service-start', name, wall: (Date.now() - began) / 1000, cpu });
      }
      resolve(service);
    }
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EACCES') exited = true;
      const hint = error.code === 'ENOENT' ? ` ${installHint(command)}` : '';
      fail(`could not start ${path.basename(command)} (${error.message}).${hint}`);
    });
    child.once('exit', (code, signal) => {
      exited = true;
      live.delete(service);
      if (settled && !stopping) onExit?.(code, signal);
      fail(`exited before it was ready (${signal ?? code})`);
    });
    if (!readyLine && !readyPort) child.once('spawn', ready);
    const timer = setTimeout(() => fail(`not ready after ${timeoutMs} ms`), timeoutMs);
    const poll = readyPort
      ? setInterval(async () => {
          if (!settled && (await portAnswers(readyPort))) ready();
        }, 50)
      : undefined;
  });
}

/**
 * Runs a command to completion in its own process group (a build, a CLI call, a benchmark) and
 * resolves with its output; rejects with the output's tail when it fails or outlives `timeoutMs`
 * (killed). With `inherit` its output goes straight to this process's (and '' is returned).
 */
export function runCommand(
  command: string,
  args: string[],
  options: {
    cwd?: string;
    env?: Record<string, string>;
    timeoutMs?: number;
    inherit?: boolean;
  } = {},
): Promise<string> {
  try {
    requireExecutable(command);
  } catch (error) {
    return Promise.reject(error);
  }
  const began = Date.now();
  const childrenCpu = reapedChildrenCpuSeconds();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: options.inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
      // On the terminal (inherit) it stays in this process group, so Ctrl-C reaches it too.
      detached: !options.inherit,
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.length > 400_000) output = output.slice(-200_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const timer = setTimeout(() => {
      try {
        process.kill(options.inherit ? (child.pid as number) : -(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
    }, options.timeoutMs ?? 300_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(command)}: ${error.message}`));
    });
    // 'exit' can come before the last of its output has been read: the answer waits for
    // 'close' (its output streams ended), or a moment more if a child it left keeps them open.
    let finished = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (profiling()) {
        // Other children that ended meanwhile count here too: an upper bound.
        const cpu = reapedChildrenCpuSeconds() - childrenCpu;
        const name = [path.basename(command), ...args.slice(0, 2)].join(' ');
        profileEvent({ kind: 'command', name, wall: (Date.now() - began) / 1000, cpu });
      }
      if (code === 0) resolve(output);
      else
        reject(
          new Error(
            `${path.basename(command)} ${args.join(' ')} failed (${signal ?? code}):\n${output.slice(-4000)}`,
          ),
        );
    };
    child.once('close', finish);
    child.once('exit', (code, signal) => {
      setTimeout(() => finish(code, signal), 1000).unref();
    });
  });
}
