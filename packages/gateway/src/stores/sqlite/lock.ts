/**
 * The lock that keeps a SQLite ledger to one `serve`: one process decides the balances in
 * memory, so a second one on the same file would let both spend the same credits. The lock is
 * `<ledger>.lock` holding the pid; a lock left by a process that is gone is taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

export class FileLock {
  private held = false;

  constructor(
    /** The ledger file the lock is for. */
    private readonly path: string,
  ) {}

  private get file(): string {
    return `${this.path}.lock`;
  }

  /** Takes the lock, or throws naming the pid of the `serve` that holds it. */
  take(): void {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.file, 'wx');
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        this.held = true;
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const pid = Number(readFileSync(this.file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
        throw new Error(
          `the SQLite ledger ${this.path} is in use by another l2-gateway serve (pid ${pid}). ` +
            'A SQLite ledger serves one process: stop the other one, or use a Redis ledger to ' +
            `run several (if no gateway runs, delete ${this.file})`,
        );
      }
      unlinkSync(this.file); // left by a process that is gone
    }
    throw new Error(`cannot lock the SQLite ledger ${this.path}`);
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    try {
      unlinkSync(this.file);
    } catch {
      // already gone
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
