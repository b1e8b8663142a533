// The machine and package versions the results were taken on.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1-minute load average when the bench started and ended (other processes share the cores). */
  loadAverage: { start: number; end?: number };
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: { start: Math.round(os.loadavg()[0]! * 100) / 100 },
  };
}

const require = createRequire(import.meta.url);

function resolveEntry(name: string): string {
  try {
    return fileURLToPath(import.meta.resolve(name));
  } catch {
    return require.resolve(name);
  }
}

/** The installed version of a package, or undefined when it is not installed. */
export function packageVersion(name: string): string | undefined {
  if (name === 'june')
    return (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;
  try {
    // Resolve the entry, then walk up to the package's own package.json (exports may hide it).
    let dir = resolveEntry(name);
    while (dir !== '/') {
      dir = dir.slice(0, dir.lastIndexOf('/'));
      try {
        const pkg = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as {
          name?: string;
          version?: string;
        };
        if (pkg.name === name) return pkg.version;
      } catch {}
    }
  } catch {}
  return undefined;
}
