/**
 * Export files of download-all: written only under LINTEL_FORMS_FILES_DIR, under unguessable
 * names, served at `/forms-exports/{name}` and deleted only from inside that folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, realpath, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Services } from '../../services.ts';
import { sendPrivateFile } from '../../http/attachment.ts';
import type { SiteHandler } from '../../http/site-handler.ts';

export const FILES_PATH = '/forms-exports/';
const NAME = /^form-\d+-[0-9a-f]{32}\.csv$/;

export async function writeExportFile(dir: string, formId: number, csv: string): Promise<{ name: string; filePath: string }> {
  await mkdir(dir, { recursive: true });
  const name = `form-${formId}-${randomBytes(16).toString('hex')}.csv`;
  const filePath = path.join(dir, name);
  await writeFile(filePath, csv, { flag: 'wx' });
  return { name, filePath };
}

const DELETE_RESULTS = {
  deleted: 'File was deleted',
  missing: 'File could not be found for deletion',
  failed: 'File could not be deleted',
  outside: 'Permission denied to delete a file in that directory.',
} as const;

/** Deletes `filePath` if it is a file inside `dir` (symlinks resolved); the legacy result message. */
export async function deleteExportFile(dir: string, filePath: string): Promise<string> {
  const inside = (root: string, p: string) => {
    const rel = path.relative(root, p);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  const target = path.resolve(dir, filePath);
  if (filePath.includes('\0') || !inside(path.resolve(dir), target)) return DELETE_RESULTS.outside;
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    return DELETE_RESULTS.missing;
  }
  // A link inside the folder that points outside it is refused like a path outside it.
  if (!inside(await realpath(dir), real)) return DELETE_RESULTS.outside;
  try {
    await unlink(real);
    return DELETE_RESULTS.deleted;
  } catch {
    return DELETE_RESULTS.failed;
  }
}

/** Serves the export files (their 128-bit random names are the access key, as the legacy uploads URL). */
export function exportFiles(services: Pick<Services, 'config'>): SiteHandler {
  return async (req, reply, pathname) => {
    if (!pathname.startsWith(FILES_PATH) || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const name = pathname.slice(FILES_PATH.length);
    if (!NAME.test(name)) return false;
    let data: Buffer;
    try {
      data = await readFile(path.join(services.config.formsFilesDir, name));
    } catch {
      return false;
    }
    await sendPrivateFile(reply, req.method, { contentType: 'text/csv; charset=UTF-8', fileName: name, data });
    return true;
  };
}
