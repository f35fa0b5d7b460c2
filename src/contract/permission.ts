/**
 * Permissions as declared on endpoints. `allows` answers for the `Allow` header (who may use this
 * endpoint at all); `check` runs after validation with the arguments, and may refuse with its own
 * error (an event that is not accessible, a record owned by someone else).
 */
import type { RestContext } from './context.ts';
import type { User } from '../lib/roles.ts';
import { can, type Capability } from '../lib/roles.ts';
import { errors } from './error-codes.ts';
import { RestError } from './errors.ts';

export interface Permission<A = unknown> {
  allows(user: User | null): boolean;
  check?(ctx: RestContext, args: A): Promise<true | RestError> | true | RestError;
  /** The refusal when `allows` is false (default: `rest_forbidden`, 401 anonymous / 403 logged in). */
  refuse?(user: User | null): RestError;
  /**
   * Whether the legacy site's check of this permission on the record the path names passes
   * (`current_user_can('edit_post', $id)`, which fails for a missing record and for one the caller
   * may not change): where it fails, the method is not in the `Allow` header, whatever the answer.
   */
  ofRecord?(ctx: RestContext, args: A): Promise<boolean>;
  /**
   * With `ofRecord`: the legacy check looks up whatever the request holds for the path parameter
   * (a query `id` overrides the path's), so a value that is no ID (a list, a word) finds no record.
   */
  anyValueLooksUp?: boolean;
  /** With `ofRecord`: the check reads the request's own parameters (`ctx.params`), so it runs whatever they hold. */
  readsRequest?: boolean;
}

/** The permission, checked by the legacy site on the record the path names (`anyValueLooksUp`: see Permission). */
export function onRecord<A>(p: Permission<A>, exists: NonNullable<Permission<A>['ofRecord']>, anyValueLooksUp = false): Permission<A> {
  return { ...p, ofRecord: exists, ...(anyValueLooksUp ? { anyValueLooksUp } : {}) };
}

/** The permission, checked by the legacy site on what the request's own parameters name (`$request['id']`), whatever they hold. */
export function onRequest<A>(p: Permission<A>, holds: NonNullable<Permission<A>['ofRecord']>): Permission<A> {
  return { ...p, ofRecord: holds, readsRequest: true };
}

export const publicAccess: Permission = { allows: () => true };

/** Needs a logged-in user with the capability. */
export function needs(capability: Capability, refusal: (loggedIn: boolean) => RestError = errors.core.forbidden): Permission {
  return {
    allows: (user) => user !== null && can(user, capability),
    refuse: (user) => refusal(user !== null),
  };
}

/** A public route whose handler decides per record (drafts, passwords, ownership). */
export function perRecord<A>(check: NonNullable<Permission<A>['check']>, allows: Permission['allows'] = () => true): Permission<A> {
  return { allows, check };
}

/** Throws the permission's refusal when the caller may not use the endpoint at all. */
export function refuseUnlessAllowed(p: Permission<never>, ctx: Pick<RestContext, 'user'>): void {
  if (!p.allows(ctx.user)) throw p.refuse ? p.refuse(ctx.user) : errors.core.forbidden(ctx.user !== null);
}

export async function authorize<A>(p: Permission<A>, ctx: RestContext, args: A): Promise<void> {
  refuseUnlessAllowed(p, ctx);
  if (p.check) {
    const r = await p.check(ctx, args);
    if (r instanceof RestError) throw r;
  }
}
