#!/usr/bin/env python3
"""Post-run check of benchmarks/run: every like and unlike that Atelier acknowledged is in the database, and
every touched product's like count equals its likes (standard library only).

    check.py DATABASE LISTS ACKS        DATABASE: sqlite:PATH or postgres://… (read with psql)

ACKS holds the tags the wrk scripts wrote (varied/common.lua): "+bL<k>" a like of pair k acknowledged,
"+bU<k>" its unlike acknowledged, "?…" sent without an answer before wrk stopped (its outcome is unknown,
so that pair is not judged). Prints one line and exits 1 if anything acknowledged is missing.
"""
import os
import sqlite3
import subprocess
import sys


def lines(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def query(database, sql):
    if database.startswith("sqlite:"):
        db = sqlite3.connect(f"file:{database[len('sqlite:'):]}?mode=ro", uri=True)
        try:
            return [tuple(r) for r in db.execute(sql)]
        finally:
            db.close()
    out = subprocess.run(["psql", database, "-At", "-F", "\t", "-c", sql], check=True, capture_output=True, text=True)
    return [tuple(line.split("\t")) for line in out.stdout.splitlines() if line]


def main(database, lists, acks_path):
    emails = lines(os.path.join(lists, "bench_users.txt"))[: len(lines(os.path.join(lists, "tokens.txt")))]
    products = [line.split("\t")[0] for line in lines(os.path.join(lists, "v_products.txt"))]
    in_list = ", ".join(f"'{e}'" for e in emails)
    user_ids = dict(query(database, f"SELECT email, id FROM users WHERE email IN ({in_list})"))
    users = [str(user_ids[e]).lower() for e in emails]
    tags = {}
    for line in lines(acks_path) if os.path.exists(acks_path) else []:
        tags[line[1:]] = line[0] == "+"

    expected = {}  # (user, product) -> True present / False absent
    for tag, ok in tags.items():
        if not tag.startswith("bL") or not ok:
            continue
        k = int(tag[2:])
        u = k % len(users)
        key = (users[u], products[(k // len(users) * 4099 + 13 * u) % len(products)].lower())
        unlike = tags.get("bU" + tag[2:])
        if unlike is None:
            expected[key] = True
        elif unlike:
            expected[key] = False
        # an unlike sent without an answer: unknown

    missing = wrong = 0
    keys = list(expected)
    present = set()
    for start in range(0, len(keys), 500):
        chunk = keys[start:start + 500]
        # Upper-case literals: SQLite keeps Fluent's upper-case text (and uses the index); PostgreSQL's uuid takes either.
        pairs = " OR ".join(f"(user_id = '{u.upper()}' AND product_id = '{p.upper()}')" for u, p in chunk)
        for u, p in query(database, f"SELECT user_id, product_id FROM product_likes WHERE {pairs}"):
            present.add((str(u).lower(), str(p).lower()))
    for key, should in expected.items():
        if should and key not in present:
            missing += 1
        elif not should and key in present:
            wrong += 1
    touched = sorted({p for _, p in keys})
    counters_off = 0
    for start in range(0, len(touched), 500):
        chunk = ", ".join(f"'{p.upper()}'" for p in touched[start:start + 500])
        counters_off += int(query(database, f"""SELECT count(*) FROM products p WHERE p.id IN ({chunk})
            AND p.like_count <> (SELECT count(*) FROM product_likes l WHERE l.product_id = p.id)""")[0][0])
    likes = sum(1 for t, ok in tags.items() if ok and t.startswith("bL"))
    unlikes = sum(1 for t, ok in tags.items() if ok and t.startswith("bU"))
    unknown = sum(1 for ok in tags.values() if not ok)
    ok = missing == 0 and wrong == 0 and counters_off == 0
    print(f"{'ok' if ok else 'FAILED'}: {likes} likes and {unlikes} unlikes acknowledged ({unknown} unanswered when wrk "
          f"stopped); {missing} acknowledged likes missing, {wrong} acknowledged unlikes still there; "
          f"{counters_off} of {len(touched)} touched products with a like count that is not their number of likes")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
