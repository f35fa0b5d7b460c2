/** Per-site secrets, created on first use; every replica sharing the store gets the same one. */
import type { Sql } from './sql.ts';

export class SiteSecretRepo {
  private readonly sql: Sql;
  constructor(sql: Sql) {
    this.sql = sql;
  }

  private async read(name: string): Promise<string | undefined> {
    const [row] = await this.sql.query<{ value: string }>('select value from site_secrets where name = $1', [name]);
    return row?.value;
  }

  /** The secret `name`, created from `make()` if it does not exist yet (a concurrent first use keeps one). */
  async get(name: string, make: () => string): Promise<string> {
    const known = await this.read(name);
    if (known !== undefined) return known;
    await this.sql.query('insert into site_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [name, make()]);
    return (await this.read(name))!;
  }
}
