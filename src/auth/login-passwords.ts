/** Login passwords (the authorize-application page): scrypt from node:crypto, salted, compared in constant time. */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEYLEN, PARAMS, (e, k) => (e ? reject(e) : resolve(k))));
}

export async function hashLoginPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `$scrypt$${salt.toString('base64url')}$${(await derive(password, salt)).toString('base64url')}`;
}

// A fixed hash to check against when the user does not exist, so timing does not reveal logins.
const DUMMY = '$scrypt$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export async function verifyLoginPassword(hash: string | null, password: string): Promise<boolean> {
  const [, kind, salt, key] = (hash ?? DUMMY).split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'));
  return hash !== null && expected.length === actual.length && timingSafeEqual(expected, actual);
}
