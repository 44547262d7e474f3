import type { Config } from '../platform/config.ts'
import { migrate } from '../platform/db/migrate.ts'
import { openDatabase } from '../platform/db/open.ts'

export async function runMigrate(config: Config): Promise<void> {
  const opened = await openDatabase(config)
  try {
    const applied = await migrate(opened.db)
    console.log(applied.length ? `applied migrations ${applied.join(', ')}` : 'database is up to date')
  } finally {
    await opened.close()
  }
}
