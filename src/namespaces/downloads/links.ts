/**
 * Expiring download links: `/download/{slug}/?wpdmdl={id}&_wpdmkey={key}` serves the package's file
 * while the key is unexpired and has uses left; each download uses the key once.
 */
import type { Services } from '../../services.ts';
import type { SiteHandler } from '../../http/site-handler.ts';
import { sendPrivateFile } from '../../http/attachment.ts';
import { errorPage } from '../../lib/html.ts';
import type { DownloadPackage } from '../../store/downloads.ts';

const PATH = /^\/download\/([a-z0-9-]+)\/?$/;

export function downloadLink(base: string, pkg: Pick<DownloadPackage, 'id' | 'slug'>, key: string): string {
  return `${base}/download/${pkg.slug}/?wpdmdl=${pkg.id}&_wpdmkey=${key}`;
}

export function downloadLinks(services: Pick<Services, 'store' | 'clock'>): SiteHandler {
  return async (req, reply, pathname, query) => {
    const m = PATH.exec(pathname);
    if (!m || (req.method !== 'GET' && req.method !== 'HEAD') || query._wpdmkey === undefined) return false;
    const id = Number(query.wpdmdl);
    const key = String(query._wpdmkey);
    const pkg = Number.isSafeInteger(id) ? await services.store.downloads.get(id) : null;
    const file = pkg && pkg.slug === m[1] && /^[A-Za-z0-9]{32}$/.test(key) ? await services.store.downloads.redeemKey(key, id, services.clock.now()) : null;
    if (!file) {
      const refusal = errorPage(403, "This download link has expired or was used up. Ask for a new download link on the package's page.");
      await reply.code(403).type('text/html; charset=UTF-8').header('Cache-Control', 'no-store').send(refusal);
      return true;
    }
    await sendPrivateFile(reply, req.method, { contentType: file.fileType, fileName: file.fileName, data: file.data });
    return true;
  };
}
