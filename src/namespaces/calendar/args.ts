/** The namespace's argument declarations, with the descriptors the legacy index shows. */
import { arg } from '../../contract/args.ts';
import { toInteger, toList } from '../../contract/coerce.ts';
import { parseWall } from './dates.ts';

const positiveInt = (v: unknown) => {
  const n = toInteger(v);
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
};
const isTime = (v: unknown) => typeof v === 'string' && v.trim() !== '' && parseWall(v, new Date(), 'UTC') !== null;
const idList = (v: unknown): unknown[] => {
  const l = toList(typeof v === 'number' ? String(v) : v);
  return Array.isArray(l) ? l : [];
};
export const asList = (v: unknown): string[] => idList(v).map((x) => String(x).trim()).filter((x) => x !== '');

/** A TEC argument with its own validate callback ("Invalid parameter." on failure). */
const tec = <T>(description: string, keywords: Record<string, unknown>, validate: (v: unknown) => boolean, sanitize: (v: unknown) => T, extra: { default?: unknown } = {}) =>
  arg.custom({ description, keywords, validate, sanitize, ...extra });

export const page = (what = 'archive') => tec(`The ${what} page to return`, { type: 'integer' }, positiveInt, (v) => Number(toInteger(v)), { default: 1 });
export const perPage = (what: string) => tec(`The number of ${what} to return on each page`, { type: 'integer' }, positiveInt, (v) => Number(toInteger(v)), { default: '10' });
export const time = (description: string) => tec(description, {}, isTime, (v) => String(v));
export const nonEmptyString = (description: string) => tec(description, { type: 'string' }, (v) => typeof v === 'string' && v !== '', (v) => String(v));
/** Lists of IDs or slugs; existence is checked by the handler, which knows the store. */
export const idsOrSlugs = (description: string) => tec(description, { items: { type: 'integer' } }, (v) => asList(v).length > 0, asList);
export const ids = (description: string) => tec(description, { items: { type: 'integer' } }, (v) => asList(v).length > 0 && asList(v).every(positiveInt), (v) => asList(v).map(Number));
export const statusArg = (description: string) => tec(description, { format: 'string' }, (v) => asList(v).length > 0, asList);
export const double = (description: string) => tec(description, { format: 'double' }, (v) => v !== '' && Number.isFinite(Number(v)), Number);
export const anything = (description: string, extra: { default?: unknown } = {}) => arg.untyped({ description, ...extra });
export const str = (description: string, extra: { default?: null } = {}) => arg.string({ description, ...extra } as never);
export const int = (description: string, extra: { default?: null } = {}) => arg.integer({ description, ...extra } as never);
export const bool = (description: string) => arg.boolean({ description });
