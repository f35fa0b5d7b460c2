/** The answers the edge sends itself, as the plugin's front end sends them. */
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../site/html.ts';

export const HTML = 'text/html; charset=UTF-8';

export function notFoundHtml(siteName: string): string {
  const esc = escapeHtml(siteName);
  return `<!DOCTYPE html>\n<html lang="en-US">\n<head>\n<meta charset="UTF-8" />\n<title>Page not found &#8211; ${esc}</title>\n</head>\n<body>\n<h1>Page not found</h1>\n</body>\n</html>\n`;
}

/** A `url` or `random` action: an empty body, the target in Location. */
export async function sendRedirect(reply: FastifyReply, code: number, target: string): Promise<void> {
  await reply.code(code).header('X-Redirect-By', 'redirection').header('Location', target).type(HTML).send('');
}

/** An `error` action: the not-found page under the rule's code, marked as the plugin's answer. */
export async function sendErrorPage(reply: FastifyReply, code: number, siteName: string): Promise<void> {
  await reply.code(code).header('X-Redirect-By', 'redirection').type(HTML).send(notFoundHtml(siteName));
}

/** A request nothing answered. */
export async function sendNotFound(reply: FastifyReply, siteName: string): Promise<void> {
  await reply.code(404).type(HTML).send(notFoundHtml(siteName));
}
