/** Download packages, their password locks and usage counts, and expiring download keys (downloads). */
import type { Sql } from './sql.ts';
import { like } from './where.ts';

export interface DownloadPackage {
  id: number;
  slug: string;
  title: string;
  content: string;
  basePrice: number;
  passwordLock: boolean;
  passwords: string[];
  /** 0: unlimited. */
  passwordUsageLimit: number;
  passwordUsage: Record<string, number>;
  fileName: string;
  fileType: string;
}

export interface NewPackage extends Omit<DownloadPackage, 'id' | 'passwordUsage'> {
  fileData: Buffer;
}

interface PackageRow {
  id: number;
  slug: string;
  title: string;
  content: string;
  base_price: string;
  password_lock: boolean;
  passwords: string[];
  password_usage_limit: number;
  password_usage: Record<string, number>;
  file_name: string;
  file_type: string;
}

const COLUMNS = 'id, slug, title, content, base_price::text, password_lock, passwords, password_usage_limit, password_usage, file_name, file_type';

const toPackage = (r: PackageRow): DownloadPackage => ({
  id: r.id, slug: r.slug, title: r.title, content: r.content, basePrice: Number(r.base_price), passwordLock: r.password_lock,
  passwords: r.passwords, passwordUsageLimit: r.password_usage_limit, passwordUsage: r.password_usage, fileName: r.file_name, fileType: r.file_type,
});

export class DownloadsRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  async create(p: NewPackage): Promise<number> {
    const [r] = await this.sql.query<{ id: number }>(
      `insert into download_packages (slug, title, content, base_price, password_lock, passwords, password_usage_limit, file_name, file_type, file_data)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
      [p.slug, p.title, p.content, p.basePrice, p.passwordLock, p.passwords, p.passwordUsageLimit, p.fileName, p.fileType, p.fileData],
    );
    return r.id;
  }

  /** The package; `forUpdate` locks its row until the transaction ends (password usage counts). */
  async get(id: number, forUpdate = false): Promise<DownloadPackage | null> {
    const [r] = await this.sql.query<PackageRow>(`select ${COLUMNS} from download_packages where id = $1${forUpdate ? ' for update' : ''}`, [id]);
    return r ? toPackage(r) : null;
  }

  async countUse(id: number, password: string): Promise<void> {
    await this.sql.query(
      `update download_packages set password_usage = jsonb_set(password_usage, array[$2], to_jsonb(coalesce((password_usage->>$2)::int, 0) + 1)) where id = $1`,
      [id, password],
    );
  }

  /** Title or content contains the keyword (case-insensitive), newest first. */
  async search(keyword: string, opts: { premiumOnly: boolean; limit: number }): Promise<{ total: number; packages: DownloadPackage[] }> {
    const pattern = like(keyword);
    const where = `(title ilike $1 or content ilike $1)${opts.premiumOnly ? ' and base_price > 0' : ''}`;
    const [count] = await this.sql.query<{ n: number }>(`select count(*)::int8 as n from download_packages where ${where}`, [pattern]);
    const rows = await this.sql.query<PackageRow>(`select ${COLUMNS} from download_packages where ${where} order by id desc limit $2`, [pattern, opts.limit]);
    return { total: count.n, packages: rows.map(toPackage) };
  }

  async createKey(key: string, packageId: number, expiresAt: Date, uses: number): Promise<void> {
    // Expired keys are dropped as new ones are made, so the table stays small.
    await this.sql.query('delete from download_keys where expires_at < $1', [new Date(expiresAt.getTime() - 86_400_000)]);
    await this.sql.query('insert into download_keys (key, package_id, expires_at, uses_left) values ($1, $2, $3, $4)', [key, packageId, expiresAt, uses]);
  }

  /** Uses the key once: the package's file when the key is for it, unexpired and not used up; otherwise null. */
  async redeemKey(key: string, packageId: number, now: Date): Promise<{ fileName: string; fileType: string; data: Buffer } | null> {
    const [used] = await this.sql.query<{ package_id: number }>(
      'update download_keys set uses_left = uses_left - 1 where key = $1 and package_id = $2 and expires_at > $3 and uses_left > 0 returning package_id',
      [key, packageId, now],
    );
    if (!used) return null;
    const [f] = await this.sql.query<{ file_name: string; file_type: string; file_data: Uint8Array }>(
      'select file_name, file_type, file_data from download_packages where id = $1',
      [packageId],
    );
    return f ? { fileName: f.file_name, fileType: f.file_type, data: Buffer.from(f.file_data) } : null;
  }
}
