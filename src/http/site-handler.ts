/**
 * One handler of site requests (outside the REST prefix). Its own module: the handlers import it,
 * and the list that chains them (`handlers.ts`) imports the handlers.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Params } from '../lib/php-params.ts';

/** Answers the request and returns true, or returns false to let the next handler try. */
export type SiteHandler = (req: FastifyRequest, reply: FastifyReply, pathname: string, query: Params) => Promise<boolean>;
