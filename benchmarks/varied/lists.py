#!/usr/bin/env python3
"""Lists for the varied workloads (W1v–W6) of benchmarks/run, from the generated catalog (standard library only).

    lists.py ATELIER_SQLITE LISTS

Needs in LISTS: bench_users.txt and tokens.txt (the signed-in shoppers, same order), pb_ids.tsv (PocketBase ids).
Writes, every line tab-separated, Atelier's request first and PocketBase's second:
  v_feed.txt      per signed-in shopper: Atelier following path, Atelier discover path, PocketBase following query,
                  PocketBase discover query (the same stores, gender and radius, which PocketBase cannot work out itself)
  v_browse.txt    category × price-window combinations (leaf categories with products, 60 windows each)
  v_products.txt  every active product: Atelier id, PocketBase id (shuffled)
  v_search.txt    several hundred title words, alone and with a gender or a price filter
  v_top_word.txt  the most common title word (W4f)
The like workloads (W5v, W6) walk (shopper, product) pairs computed from v_products.txt (see varied/common.lua).
"""
import math
import os
import random
import re
import sqlite3
import sys
import urllib.parse
import collections
from collections import Counter


def lines(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def km(lat1, lng1, lat2, lng2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 12742 * math.asin(math.sqrt(a))


def q(**params):
    return urllib.parse.urlencode(params, quote_via=urllib.parse.quote)


def pb_list(filter_, expand="store", page=None):
    params = {"filter": filter_, "sort": "-created", "perPage": 20, "skipTotal": 1}
    if expand:
        params["expand"] = expand
    return q(**params)


def genders(g):
    return {"women": ["women", "unisex"], "men": ["men", "unisex"]}.get(g, [])


def pb_filter(stores, gender, pb):
    parts = ["active=true"]
    if stores is not None:
        parts.append("(" + (" || ".join(f"store='{pb[s]}'" for s in stores) or "store=''") + ")")
    if genders(gender):
        parts.append("(" + " || ".join(f"gender='{g}'" for g in genders(gender)) + ")")
    return "(" + " && ".join(parts) + ")"


def main(db_path, lists):
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    rng = random.Random(2026)
    # Without PocketBase (the scaling run) its columns are "-".
    pb = collections.defaultdict(lambda: "-")
    if os.path.exists(os.path.join(lists, "pb_ids.tsv")):
        for line in lines(os.path.join(lists, "pb_ids.tsv")):
            _, uuid, pid = line.split("\t")
            pb[uuid] = pid
    stores = {r[0]: (r[1], r[2]) for r in db.execute("SELECT id, lat, lng FROM stores WHERE lat IS NOT NULL")}

    out = []
    for email in lines(os.path.join(lists, "bench_users.txt"))[: len(lines(os.path.join(lists, "tokens.txt")))]:
        uid, lat, lng, radius, gender = db.execute(
            "SELECT id, home_lat, home_lng, radius_km, gender_preference FROM users WHERE email = ?", (email,)).fetchone()
        followed = [r[0] for r in db.execute(
            "SELECT target_id FROM follows WHERE user_id = ? AND target_type = 'store'", (uid,))]
        near = lambda s, r: s in stores and km(lat, lng, *stores[s]) <= r
        discover_radius = rng.choice([5, 10, 10, 50])
        discover_gender = rng.choice(["women", "men", "all"])
        out.append("\t".join([
            "/api/v1/feed/following",
            "/api/v1/feed/discover?" + q(gender=discover_gender, radiusKm=discover_radius, lat=lat, lng=lng),
            pb_list(pb_filter([s for s in followed if near(s, radius)], gender, pb)),
            pb_list(pb_filter([s for s in stores if near(s, discover_radius)], discover_gender, pb)),
        ]))
    write(lists, "v_feed.txt", out)

    leaves = [r[0] for r in db.execute(
        "SELECT category_id FROM products p WHERE status = 'active' AND NOT EXISTS "
        "(SELECT 1 FROM categories c WHERE c.parent_id = p.category_id) GROUP BY category_id HAVING count(*) >= 20")]
    out = []
    for category in leaves:
        for _ in range(60):
            low = rng.randrange(0, 40000, 500)
            high = low + rng.choice([2000, 5000, 10000, 20000, 50000])
            out.append(f"/api/v1/products?{q(categoryId=category, priceMin=low, priceMax=high, limit=20)}\t"
                       + pb_list(f"(active=true && category='{pb[category]}' && price>={low} && price<={high})"))
    rng.shuffle(out)
    write(lists, "v_browse.txt", out)

    products = [r[0] for r in db.execute("SELECT id FROM products WHERE status = 'active' ORDER BY id")]
    rng.shuffle(products)
    write(lists, "v_products.txt", [f"{p}\t{pb[p]}" for p in products])

    words = Counter()
    for (title,) in db.execute("SELECT title FROM products WHERE status = 'active'"):
        words.update(w for w in re.findall(r"[a-z]+", title.lower()) if len(w) >= 3)
    vocabulary = [w for w, _ in words.most_common(400)]
    write(lists, "v_top_word.txt", vocabulary[:1])
    parents = [r[0] for r in db.execute("SELECT id FROM categories WHERE parent_id IS NOT NULL")]
    out = []
    for word in vocabulary:
        out.append(f"/api/v1/search/products?{q(q=word, limit=20)}\t"
                   + pb_list(f"(active=true && title~'{word}')", expand=None))
        gender = rng.choice(["women", "men"])
        out.append(f"/api/v1/search/products?{q(q=word, gender=gender, limit=20)}\t"
                   + pb_list(pb_filter(None, gender, pb)[:-1] + f" && title~'{word}')", expand=None))
        high = rng.choice([5000, 10000, 20000])
        out.append(f"/api/v1/search/products?{q(q=word, priceMax=high, limit=20)}\t"
                   + pb_list(f"(active=true && title~'{word}' && price<={high})", expand=None))
    rng.shuffle(out)
    write(lists, "v_search.txt", out)
    print(f"varied lists in {lists}: {len(lines(os.path.join(lists, 'v_feed.txt')))} shoppers, "
          f"{len(leaves) * 60} category × price windows, {len(products)} products, "
          f"{len(vocabulary)} words ({len(out)} searches)")


def write(lists, name, rows):
    with open(os.path.join(lists, name), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
