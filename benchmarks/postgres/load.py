#!/usr/bin/env python3
"""Copies a generated Atelier catalog from SQLite into PostgreSQL, for the PostgreSQL pass of benchmarks/run
(standard library and psql only).

    load.py ATELIER_SQLITE POSTGRES_URL

POSTGRES_URL must hold Atelier's schema already (`atelier migrate --yes` with DATABASE_URL=POSTGRES_URL). Every
table the two share is emptied in PostgreSQL and filled from SQLite, parents before children (the foreign keys
stay on), converting what the two store differently: booleans (0/1), times (seconds since 1970 in SQLite).
The search index is not copied: run `atelier search-reindex` afterwards (PostgreSQL keeps a tsvector).
"""
import csv
import datetime
import io
import sqlite3
import subprocess
import sys

SKIP = {"_fluent_migrations", "product_search_docs"}


def psql(url, sql, stdin=None):
    out = subprocess.run(["psql", url, "-XAtq", "-v", "ON_ERROR_STOP=1", "-F", "\t", "-c", sql], input=stdin,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"psql failed on {sql[:120]}: {out.stderr.strip()}")
    return [line.split("\t") for line in out.stdout.splitlines() if line]


def ordered(tables, url):
    """Parents first (tables referenced by foreign keys come before those referring to them)."""
    edges = psql(url, """SELECT c.conrelid::regclass::text, c.confrelid::regclass::text FROM pg_constraint c
        WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace""")
    parents = {t: set() for t in tables}
    for child, parent in edges:
        child, parent = child.split(".")[-1].strip('"'), parent.split(".")[-1].strip('"')
        if child in parents and parent in parents and child != parent:
            parents[child].add(parent)
    done, out = set(), []
    while len(out) < len(tables):
        ready = sorted(t for t in tables if t not in done and parents[t] <= done)
        if not ready:
            raise SystemExit(f"foreign keys form a cycle among {sorted(set(tables) - done)}")
        out += ready
        done |= set(ready)
    return out


def convert(value, pg_type):
    if value is None:
        return "\\N"
    if pg_type == "boolean":
        return "t" if value in (1, "1", True, "true") else "f"
    if pg_type.startswith("timestamp") and isinstance(value, (int, float)):
        return datetime.datetime.fromtimestamp(value, datetime.timezone.utc).isoformat()
    if pg_type == "bytea" and isinstance(value, bytes):
        return "\\x" + value.hex()
    return value


def main(sqlite_path, url):
    src = sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    sqlite_tables = {r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    columns = {}
    for table, column, pg_type in psql(url, """SELECT table_name, column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"""):
        columns.setdefault(table, []).append((column, pg_type))
    tables = [t for t in columns if t in sqlite_tables and t not in SKIP]
    psql(url, "TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + ", product_search_docs CASCADE")
    for table in ordered(tables, url):
        in_sqlite = {r[1] for r in src.execute(f'PRAGMA table_info("{table}")')}
        shared = [(c, t) for c, t in columns[table] if c in in_sqlite]
        names = ", ".join(f'"{c}"' for c, _ in shared)
        rows = src.execute(f'SELECT {names} FROM "{table}"')
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        count = 0
        for row in rows:
            writer.writerow([convert(v, t) for v, (_, t) in zip(row, shared)])
            count += 1
        if count:
            psql(url, f"\\copy \"{table}\" ({names}) FROM STDIN WITH (FORMAT csv, NULL '\\N')", stdin=buffer.getvalue())
        print(f"  {table}: {count} rows")
    psql(url, "ANALYZE")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
