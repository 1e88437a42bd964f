import Fluent
import SQLKit

/// The full-text index over products (discovery.md, Search). `product_search_docs` holds each
/// product's searchable text in two parts, a headline (title, brand, category path; ranked higher)
/// and a body (description, store, colours, styles, fabric). SQLite indexes it with an FTS5 table
/// kept in step by triggers; PostgreSQL keeps a weighted tsvector beside it under a GIN index.
struct CreateProductSearch: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database.sql
        if sql.dialect.name == "postgresql" {
            // unaccent is a trusted extension: the database owner may create it. It lives in `public`
            // (called by that name) so that it outlives any one schema of a shared database.
            try await sql.raw("CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public").run()
            try await sql.raw("""
                CREATE TABLE product_search_docs (
                    id BIGSERIAL PRIMARY KEY,
                    product_id UUID NOT NULL UNIQUE REFERENCES products(id) ON DELETE CASCADE,
                    headline TEXT NOT NULL,
                    body TEXT NOT NULL,
                    tsv TSVECTOR NOT NULL)
                """).run()
            try await sql.raw("CREATE INDEX product_search_docs_tsv_idx ON product_search_docs USING GIN (tsv)").run()
        } else {
            try await sql.raw("""
                CREATE TABLE product_search_docs (
                    id INTEGER PRIMARY KEY,
                    product_id BLOB NOT NULL UNIQUE REFERENCES products(id) ON DELETE CASCADE,
                    headline TEXT NOT NULL,
                    body TEXT NOT NULL)
                """).run()
            try await sql.raw("""
                CREATE VIRTUAL TABLE product_search_fts USING fts5(
                    headline, body, content='product_search_docs', content_rowid='id',
                    tokenize='unicode61 remove_diacritics 2', prefix='2 3')
                """).run()
            try await sql.raw("""
                CREATE TRIGGER product_search_docs_ai AFTER INSERT ON product_search_docs BEGIN
                    INSERT INTO product_search_fts(rowid, headline, body) VALUES (new.id, new.headline, new.body);
                END
                """).run()
            try await sql.raw("""
                CREATE TRIGGER product_search_docs_ad AFTER DELETE ON product_search_docs BEGIN
                    INSERT INTO product_search_fts(product_search_fts, rowid, headline, body) VALUES ('delete', old.id, old.headline, old.body);
                END
                """).run()
            try await sql.raw("""
                CREATE TRIGGER product_search_docs_au AFTER UPDATE ON product_search_docs BEGIN
                    INSERT INTO product_search_fts(product_search_fts, rowid, headline, body) VALUES ('delete', old.id, old.headline, old.body);
                    INSERT INTO product_search_fts(rowid, headline, body) VALUES (new.id, new.headline, new.body);
                END
                """).run()
        }
        // Price sorts and ranges, most-liked sort.
        try await sql.create(index: "products_status_price_idx").on(Product.schema).column("status").column("price_minor").run()
        try await sql.create(index: "products_status_likes_idx").on(Product.schema).column("status").column("like_count").run()
        try await SearchIndex(db: database).refresh(.all)
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        try await sql.drop(index: "products_status_likes_idx").run()
        try await sql.drop(index: "products_status_price_idx").run()
        if sql.dialect.name != "postgresql" {
            try await sql.raw("DROP TABLE IF EXISTS product_search_fts").run()
        }
        try await sql.drop(table: "product_search_docs").ifExists().run()
    }
}
