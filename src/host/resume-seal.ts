import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Seals for the resume details `june run` leaves in a run folder (`process.json`): an
 * HMAC-SHA256 (hex, 64 characters) of the run id and the details under a key only this user
 * can read (`~/.june/resume.key`, 32 random bytes, mode 0600, made on first use). Studio
 * resumes a stopped run only when its seal checks, so a run folder that arrived with a cloned
 * repository, or that someone else wrote, can never make Studio start anything.
 */

const KEY_FILE = 'resume.key';
let cached: Promise<Buffer | undefined> | undefined;

/** Where the key lives: `<home>/.june/resume.key`. */
export function resumeKeyPath(): string {
  return join(homedir(), '.june', KEY_FILE);
}

/**
 * The seal of a run's resume details, or undefined when this user has no usable key (no
 * home folder to keep one in). Never throws.
 */
export async function sealResume(runId: string, details: unknown): Promise<string | undefined> {
  const key = await resumeKey();
  return key && mac(key, runId, details);
}

/** True when `seal` is the seal of these resume details for this user. Never throws. */
export async function resumeSealHolds(
  runId: string,
  details: unknown,
  seal: unknown,
): Promise<boolean> {
  if (typeof seal !== 'string' || !/^[0-9a-f]{64}$/.test(seal)) return false;
  const key = await resumeKey();
  if (!key) return false;
  return timingSafeEqual(Buffer.from(mac(key, runId, details), 'hex'), Buffer.from(seal, 'hex'));
}

function mac(key: Buffer, runId: string, details: unknown): string {
  return createHmac('sha256', key)
    .update(JSON.stringify([runId, details]))
    .digest('hex');
}

function resumeKey(): Promise<Buffer | undefined> {
  cached ??= loadKey().catch(() => undefined);
  return cached;
}

/**
 * Reads the key, or makes it: written whole to a file of its own, then linked into place, so
 * two first runs at once agree on one key and neither reads a half-written one.
 */
async function loadKey(): Promise<Buffer | undefined> {
  const folder = join(homedir(), '.june');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, KEY_FILE);
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  try {
    await link(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(draft);
  }
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const info = await file.stat();
    const uid = process.getuid?.();
    if (!info.isFile() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o077) !== 0)
      return undefined;
    const text = (await file.readFile('utf8')).trim();
    return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, 'hex') : undefined;
  } finally {
    await file.close();
  }
}
