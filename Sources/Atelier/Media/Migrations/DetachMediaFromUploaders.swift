import Fluent
import SQLKit

/// `media.uploader_id` becomes optional and `ON DELETE SET NULL` (it cascaded): deleting a staff
/// member's account deleted the store's product photos they had uploaded. Which of a deleted
/// person's media go is now `AccountDeletion`'s decision, not the foreign key's.
struct DetachMediaFromUploaders: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database.sql
        if sql.dialect.name == "sqlite" {
            try await rebuildOnSQLite(database)
        } else {
            let constraints = try await sql.raw("""
                SELECT tc.constraint_name AS name FROM information_schema.table_constraints tc
                JOIN information_schema.key_column_usage k
                  ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema
                WHERE tc.table_name = \(bind: Media.schema) AND tc.table_schema = current_schema()
                  AND tc.constraint_type = 'FOREIGN KEY' AND k.column_name = 'uploader_id'
                """).all().map { try $0.decode(column: "name", as: String.self) }
            for name in constraints {
                try await sql.raw("ALTER TABLE \(ident: Media.schema) DROP CONSTRAINT \(ident: name)").run()
            }
            try await sql.raw("ALTER TABLE \(ident: Media.schema) ALTER COLUMN uploader_id DROP NOT NULL").run()
            try await sql.raw("""
                ALTER TABLE \(ident: Media.schema) ADD CONSTRAINT media_uploader_fk
                FOREIGN KEY (uploader_id) REFERENCES \(ident: User.schema) (id) ON DELETE SET NULL
                """).run()
        }
    }

    /// SQLite cannot change a column's constraints: the table is made anew and renamed, as its
    /// documentation describes, on one connection with foreign keys off (the other tables'
    /// references to `media` then point at the new table).
    private func rebuildOnSQLite(_ database: any Database) async throws {
        try await database.withConnection { connection in
            let sql = connection.sql
            try await sql.raw("PRAGMA foreign_keys = OFF").run()
            do {
                try await sql.raw("BEGIN").run()
                try await CreateMedia.table(named: "media_new", on: connection, uploaderOptional: true)
                let columns = CreateMedia.columns.map { SQLIdentifier($0) }
                try await sql.raw("""
                    INSERT INTO media_new (\(SQLList(columns))) SELECT \(SQLList(columns)) FROM \(ident: Media.schema)
                    """).run()
                try await sql.raw("DROP TABLE \(ident: Media.schema)").run()
                try await sql.raw("ALTER TABLE media_new RENAME TO \(ident: Media.schema)").run()
                try await CreateMedia.indexes(on: sql)
                try await sql.raw("COMMIT").run()
            } catch {
                try? await sql.raw("ROLLBACK").run()
                try? await sql.raw("PRAGMA foreign_keys = ON").run()
                throw error
            }
            try await sql.raw("PRAGMA foreign_keys = ON").run()
        }
    }

    func revert(on database: any Database) async throws {}
}
