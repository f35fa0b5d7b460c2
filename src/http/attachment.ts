/** A file sent for saving (`Content-Disposition: attachment`): exports, download packages, calendar feeds. */
import type { FastifyReply } from 'fastify';

/** The header value; a name outside plain ASCII also goes as RFC 6266's `filename*`, with an ASCII stand-in. */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\w.-]+/g, '_');
  return ascii === fileName ? `attachment; filename="${fileName}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** A private file (never stored by a cache, never sniffed as another type); HEAD gets the headers alone. */
export async function sendPrivateFile(reply: FastifyReply, method: string, f: { contentType: string; fileName: string; data: Buffer }): Promise<void> {
  reply.code(200).headers({
    'Content-Type': f.contentType,
    'Content-Disposition': attachment(f.fileName),
    'Content-Length': String(f.data.length),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  await reply.send(method === 'HEAD' ? undefined : f.data);
}
