#!/usr/bin/env python3
"""Fills a migrated Atelier SQLite database with benchmark data for the discovery workloads.

    benchmarks/discovery/generate.py DATA_DIR/atelier.sqlite [--products 100000] [--stores 200]
        [--users 10000] [--seed 2026] [--atelier BIN] [--password-hash-from EMAIL] [--out DIR]

The database must be migrated (`atelier migrate --yes`) and hold one account made by the app
whose password hash every generated user gets (`atelier create-admin --email EMAIL --password P`;
`benchmarks/discovery/run` does both). Rows are written the way Fluent writes them on SQLite:
UUIDs as upper-case text with dashes, dates as REAL seconds since 1970, booleans as 0/1. Ids are
UUIDv7 made from each row's created_at, so id order is creation order as the app expects.
Counters (like_count, follower_count, active_product_count) equal the rows they count.

The data is the same for the same --seed and --now. Afterwards it runs `atelier search-reindex`
(the full-text index and ANALYZE) and writes, into --out, the files the wrk scripts read:
product_ids.txt (1 000 active products), like_product_ids.txt (5 000 more), bench_users.txt
(shoppers to sign in as) and places.txt (city centres).
"""
import argparse
import json
import math
import os
import random
import sqlite3
import subprocess
import sys
import time
import unicodedata
from itertools import accumulate

DAY = 86_400.0

# CatalogVocabulary.colors and .styles (Sources/Atelier/Catalog/Services/CatalogVocabulary.swift).
PALETTE = ["black", "white", "grey", "beige", "brown", "red", "pink", "orange", "yellow", "green", "blue",
           "navy", "purple", "gold", "silver", "multi"]
PALETTE_WEIGHTS = [16, 12, 9, 8, 6, 5, 5, 3, 3, 5, 9, 8, 3, 1, 1, 2]
STYLES = ["casual", "formal", "business", "sport", "party", "street", "vintage", "beach", "outdoor", "lounge"]
COLOR_HEX = {
    "black": "#1e1e20", "white": "#fafaf8", "grey": "#8c8c91", "beige": "#d6c4a8", "brown": "#785032", "red": "#b41e28",
    "pink": "#e696aa", "orange": "#e67828", "yellow": "#ebc83c", "green": "#3c7846", "blue": "#3264b4", "navy": "#192350",
    "purple": "#6e3c8c", "gold": "#c8a03c", "silver": "#bebec8", "multi": "#a08c78",
}
COLOR_NAMES = {
    "black": ["Jet black", "Washed black"], "white": ["Off-white", "Chalk", "Ivory"], "grey": ["Heather grey", "Slate"],
    "beige": ["Sand", "Oat", "Camel"], "brown": ["Chocolate", "Tobacco"], "red": ["Cherry", "Brick red"],
    "pink": ["Dusty pink", "Blush"], "orange": ["Rust", "Tangerine"], "yellow": ["Mustard", "Lemon"],
    "green": ["Olive", "Forest green", "Sage"], "blue": ["Sky blue", "Cobalt", "Light denim"], "navy": ["Midnight", "Ink"],
    "purple": ["Plum", "Lilac"], "gold": ["Antique gold"], "silver": ["Metallic silver"], "multi": ["Floral print", "Stripes"],
}

# Size sets by kind of garment.
SIZES = {
    "top": ["XS", "S", "M", "L", "XL"], "waist": ["W26", "W28", "W30", "W32", "W34", "W36"],
    "shoe": [str(n) for n in range(36, 46)], "suit": ["46", "48", "50", "52", "54"], "one": ["One size"],
}

# The category tree: 50 nodes. Leaves: (name, noun used in titles, size kind, fabrics).
TOPS = ["Cotton", "Organic cotton", "Linen", "Viscose", "Silk", "Merino wool"]
KNITS = ["Merino wool", "Wool", "Cashmere", "Cotton"]
LEGS = ["Denim", "Cotton", "Corduroy", "Linen", "Wool"]
DRESS = ["Viscose", "Cotton", "Silk", "Linen", "Recycled polyester"]
OUTER = ["Wool", "Recycled polyester", "Cotton", "Leather", "Nylon"]
SHOE = ["Leather", "Suede", "Canvas"]
ACC = ["Leather", "Wool", "Cotton", "Canvas"]
TREE = [
    ("Women", "women", [
        ("Tops", [("Shirts", "shirt", "top", TOPS), ("T-shirts", "t-shirt", "top", ["Cotton", "Organic cotton"]),
                  ("Blouses", "blouse", "top", ["Silk", "Viscose", "Cotton"]), ("Knitwear", "jumper", "top", KNITS),
                  ("Tank tops", "tank top", "top", ["Cotton", "Viscose"])]),
        ("Bottoms", [("Jeans", "jeans", "waist", ["Denim"]), ("Trousers", "trousers", "waist", LEGS),
                     ("Skirts", "skirt", "top", DRESS + ["Denim"]), ("Shorts", "shorts", "waist", LEGS)]),
        ("Dresses", [("Day dresses", "dress", "top", DRESS), ("Evening dresses", "evening dress", "top", ["Silk", "Satin", "Velvet"]),
                     ("Maxi dresses", "maxi dress", "top", DRESS)]),
        ("Outerwear", [("Coats", "coat", "top", OUTER), ("Jackets", "jacket", "top", OUTER + ["Denim"])]),
        ("Shoes", [("Sneakers", "sneakers", "shoe", SHOE), ("Boots", "boots", "shoe", ["Leather", "Suede"]),
                   ("Heels", "heels", "shoe", ["Leather", "Suede"])]),
        ("Accessories", [("Bags", "bag", "one", ACC), ("Scarves", "scarf", "one", ["Wool", "Cashmere", "Silk"])]),
    ]),
    ("Men", "men", [
        ("Tops", [("Shirts", "shirt", "top", TOPS[:4]), ("T-shirts", "t-shirt", "top", ["Cotton", "Organic cotton"]),
                  ("Knitwear", "jumper", "top", KNITS), ("Polo shirts", "polo shirt", "top", ["Cotton", "Organic cotton"])]),
        ("Bottoms", [("Jeans", "jeans", "waist", ["Denim"]), ("Chinos", "chinos", "waist", ["Cotton", "Linen"])]),
        ("Outerwear", [("Coats", "coat", "top", OUTER), ("Jackets", "jacket", "top", OUTER + ["Denim"])]),
        ("Suits", [("Suits", "suit", "suit", ["Wool", "Linen"]), ("Blazers", "blazer", "suit", ["Wool", "Linen", "Cotton"])]),
        ("Shoes", [("Sneakers", "sneakers", "shoe", SHOE), ("Boots", "boots", "shoe", ["Leather", "Suede"])]),
    ]),
    ("Unisex", "unisex", [
        ("Hoodies", "hoodie", "top", ["Cotton", "Organic cotton"]), ("Sweatshirts", "sweatshirt", "top", ["Cotton"]),
        ("Caps", "cap", "one", ["Cotton", "Wool"]), ("Belts", "belt", "one", ["Leather"]), ("Socks", "socks", "one", ["Cotton", "Wool"]),
    ]),
]
GENDER_SHARE = {"women": 0.50, "men": 0.38, "unisex": 0.12}

ADJECTIVES = ["Relaxed", "Slim", "Oversized", "Cropped", "Classic", "Pleated", "Striped", "Washed", "Vintage", "Ribbed",
              "Quilted", "Soft", "Tailored", "Boxy", "Fitted", "Straight", "Wide", "Lightweight", "Heavyweight", "Essential",
              "Everyday", "Structured", "Draped", "Textured", "Printed", "Embroidered", "Button-down", "High-neck"]
FITS = ["a relaxed fit", "a slim fit", "a regular fit", "a loose, easy fit", "a cropped length", "a tailored shape"]
DETAILS = [
    "Machine wash at 30°C.", "Made in Portugal.", "Made in Lithuania.", "Made in Italy.", "Ask us about the fit — we are happy to help.",
    "Pairs well with our straight jeans.", "Limited run; few pieces left.", "Pre-washed for a soft hand feel.",
    "Reinforced seams and horn buttons.", "Certified organic fibres.", "One of our best sellers this season.",
    "True to size; size down for a closer fit.", "Try it on in store any day of the week.", "Lined for warmth.",
    "Hand-finished details.", "Garment dyed for a lived-in colour.",
]

CITIES = [
    # name, lat, lng, IANA zone, currency, weight, streets, postal prefix
    ("Stockholm", 59.3293, 18.0686, "Europe/Stockholm", "SEK", 50,
     ["Drottninggatan", "Götgatan", "Hornsgatan", "Biblioteksgatan", "Odengatan", "Sveavägen", "Folkungagatan", "Upplandsgatan"], "11"),
    ("Gothenburg", 57.7089, 11.9746, "Europe/Stockholm", "SEK", 40,
     ["Linnégatan", "Haga Nygata", "Vallgatan", "Magasinsgatan", "Andra Långgatan", "Vasagatan", "Skånegatan", "Kungsgatan"], "41"),
    ("Copenhagen", 55.6761, 12.5683, "Europe/Copenhagen", "DKK", 35,
     ["Strøget", "Jægersborggade", "Istedgade", "Værnedamsvej", "Nørrebrogade", "Købmagergade", "Elmegade", "Vesterbrogade"], "1"),
    ("Berlin", 52.5200, 13.4050, "Europe/Berlin", "EUR", 35,
     ["Torstraße", "Kastanienallee", "Oranienstraße", "Bergmannstraße", "Weinmeisterstraße", "Kollwitzstraße", "Warschauer Straße", "Alte Schönhauser Straße"], "10"),
    ("Oslo", 59.9139, 10.7522, "Europe/Oslo", "NOK", 25,
     ["Markveien", "Bogstadveien", "Thorvald Meyers gate", "Prinsens gate", "Grünerløkka", "Hegdehaugsveien", "Torggata", "Karl Johans gate"], "0"),
    ("Malmö", 55.6050, 13.0038, "Europe/Stockholm", "SEK", 15,
     ["Södergatan", "Davidshallsgatan", "Möllevångsgatan", "Föreningsgatan", "Lilla Torg", "Bergsgatan"], "21"),
]

STORE_FIRST = ["Linnea", "Haga", "Norr", "Söder", "Kungs", "Vasa", "Östra", "Väster", "Park", "Torg", "Hamn", "Ängen", "Kvarter",
               "Lilla", "Stora", "Gamla", "Nya", "Ek", "Björk", "Lind", "Sol", "Måne", "Stjärn", "Strand", "Fjord", "Bro", "Kanal",
               "Rosen", "Lönn", "Ask"]
STORE_KIND = ["Vintage", "Threads", "Studio", "Denim", "Atelier", "Boutique", "Edit", "Tailors", "Rags", "Knit", "Concept",
              "Supply", "Collective", "Store", "Closet", "Wardrobe", "Second Hand", "Mode", "Shoes", "Outfitters"]
BRAND_HEAD = ["Nord", "Salt", "Linne", "Fjäll", "Havs", "Kvarn", "Ost", "Sjö", "Tall", "Vit", "Älv", "Gran", "Björk", "Sol", "Mar",
              "Rim", "Klipp", "Hed", "Löv", "Sten", "Bris", "Ek", "Sand", "Lingon", "Frost", "Silver", "Vild", "Skär", "Moln",
              "Ängs", "Strand", "Blå", "Is", "Kastanj", "Moss", "Tid"]
BRAND_TAIL = ["vik", "holm", "by", "dal", "berg", "ö", "mo", "hed", "sund", "udden", "ström", "lund", "ås", "fors", "näs"]
BRAND_SUFFIX = ["", "", "", "", " Studio", " & Co", " Denim", " Atelier", " Supply"]
FIRST_NAMES = ["Ana", "Sara", "Emma", "Maja", "Elsa", "Alice", "Ella", "Wilma", "Ida", "Freja", "Nora", "Astrid", "Linnea", "Olivia",
               "Mihai", "Erik", "Lars", "Oscar", "Hugo", "Liam", "Noah", "William", "Lucas", "Elias", "Axel", "Leo", "Nils", "Emil",
               "Karin", "Johan", "Sofia", "Jonas", "Mette", "Søren", "Ingrid", "Magnus", "Lena", "Jens", "Hanna", "Felix"]
LAST_NAMES = ["Lindqvist", "Holm", "Popescu", "Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Olsen",
              "Hansen", "Jensen", "Berg", "Dahl", "Lund", "Schmidt", "Müller", "Fischer", "Weber", "Wagner", "Svensson",
              "Persson", "Gustafsson", "Pettersson", "Jonsson", "Nielsen", "Pedersen", "Haugen", "Bakke", "Strand"]

OPENING_HOURS = json.dumps([{"weekday": d, "opens": "10:00", "closes": "16:00" if d == 6 else "18:00"} for d in range(1, 7)],
                           separators=(",", ":"))
OPENING_HOURS_SUNDAY = json.dumps(
    [{"weekday": d, "opens": "11:00" if d == 7 else "10:00", "closes": "16:00" if d >= 6 else "19:00"} for d in range(1, 8)],
    separators=(",", ":"))

# A blurred thumbnail as the media pipeline makes it (taken from a demo photo); products share it.
PLACEHOLDER = (
    "data:image/jpeg;base64,/9j/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dARkVQWnNiUFVtVkVGZIhlbXd7gYKBTmCNl4x"
    "9lnN+gXz/2wBDARUXFx4aHjshITt8U0ZTfHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHz/wAARCAAVA"
    "BADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJ"
    "xFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTl"
    "JWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAA"
    "AAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJ"
    "ygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcb"
    "HyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDqZZUhTfIcDOOmST6AURSpMm+M5GcdMEH0Irm/F80sUln5Ujpwx"
    "+ViOeKPCE0ssl35sjvwp+ZieeafL7twvrY6C5sra7Km5gjl2/d3jOKLaytrQsbaCOLd97YMZooqbjP/2Q==")


PHONE_CODES = {"SEK": "+46 8", "DKK": "+45 33", "EUR": "+49 30", "NOK": "+47 22"}


def slugify(text):
    text = unicodedata.normalize("NFKD", text.replace("ø", "o").replace("Ø", "O").replace("æ", "ae").replace("ß", "ss"))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    out, dash = [], False
    for c in text:
        if c.isascii() and c.isalnum():
            out.append(c)
            dash = False
        elif not dash and out:
            out.append("-")
            dash = True
    return "".join(out).strip("-")


class Ids:
    """UUIDs as Fluent stores them on SQLite: upper-case text with dashes."""

    def __init__(self, rng):
        self.rng = rng

    @staticmethod
    def _text(value):
        h = "%032X" % value
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def v7(self, seconds):
        """RFC 9562 version 7 from a time in seconds (Sources/Atelier/Core/Database/UUIDv7.swift)."""
        ms = int(seconds * 1000)
        r = self.rng.getrandbits(74)
        return self._text((ms << 80) | (0x7 << 76) | ((r >> 62) << 64) | (0x2 << 62) | (r & ((1 << 62) - 1)))

    def v4(self):
        r = self.rng.getrandbits(128)
        return self._text((r & ~((0xF << 76) | (0x3 << 62))) | (0x4 << 76) | (0x2 << 62))


def offset(lat, lng, km_north, km_east):
    return lat + km_north / 111.32, lng + km_east / (111.32 * math.cos(math.radians(lat)))


def distance_km(lat1, lng1, lat2, lng2):
    rad = math.pi / 180
    a = math.sin((lat2 - lat1) * rad / 2) ** 2 + math.cos(lat1 * rad) * math.cos(lat2 * rad) * math.sin((lng2 - lng1) * rad / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1, math.sqrt(a)))


def apportion(total, weights):
    raw = [total * w / sum(weights) for w in weights]
    counts = [int(x) for x in raw]
    for i in sorted(range(len(raw)), key=lambda i: raw[i] - counts[i], reverse=True)[: total - sum(counts)]:
        counts[i] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("database", help="path of the migrated SQLite file")
    ap.add_argument("--products", type=int, default=100_000)
    ap.add_argument("--stores", type=int, default=200)
    ap.add_argument("--users", type=int, default=10_000)
    ap.add_argument("--brands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--days", type=int, default=180, help="products were created over this many days up to --now")
    ap.add_argument("--now", type=float, default=None, help="the present, seconds since 1970 (default: the clock)")
    ap.add_argument("--spread-hours", type=float, default=6, help="feed sort key spread (the app's FEED_SPREAD_HOURS)")
    ap.add_argument("--password-hash-from", default="bench-admin@bench.atelier.test",
                    help="email of an account made by the app whose password hash all generated users get")
    ap.add_argument("--atelier", default=os.environ.get("ATELIER_BIN", ".build-release/release/atelier"),
                    help="the atelier binary, for search-reindex")
    ap.add_argument("--no-reindex", action="store_true", help="skip `atelier search-reindex`")
    ap.add_argument("--out", default=None, help="where the id and user lists go (default: the database's folder)")
    ap.add_argument("--token-users", type=int, default=64, help="how many shoppers to list in bench_users.txt")
    args = ap.parse_args()

    started = time.perf_counter()
    timings = {}
    rng = random.Random(args.seed)
    ids = Ids(rng)
    now = float(int(args.now if args.now is not None else time.time()))
    out_dir = args.out or os.path.dirname(os.path.abspath(args.database))
    os.makedirs(out_dir, exist_ok=True)

    db = sqlite3.connect(args.database, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("PRAGMA journal_mode=MEMORY")  # this connection only; the file keeps its journal mode
    db.execute("PRAGMA cache_size=-400000")
    db.execute("PRAGMA temp_store=MEMORY")
    if db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name='products'").fetchone()[0] == 0:
        sys.exit(f"{args.database} is not migrated: run `atelier migrate --yes` first")
    if db.execute("SELECT COUNT(*) FROM products").fetchone()[0] or db.execute("SELECT COUNT(*) FROM stores").fetchone()[0]:
        sys.exit(f"{args.database} already has stores or products; generate into a fresh database")
    row = db.execute("SELECT password_hash FROM users WHERE email = ?", (args.password_hash_from.lower(),)).fetchone()
    if not row or not row[0]:
        sys.exit(f"no account {args.password_hash_from} with a password: make one with "
                 f"`atelier create-admin --email {args.password_hash_from} --password ...` first")
    password_hash = row[0]

    t_products_start = now - args.days * DAY
    t0 = t_products_start - 30 * DAY  # the platform before its first product

    # --- categories --------------------------------------------------------------------------
    tick = time.perf_counter()
    cat_rows, leaves = [], []
    t = t0 - 60 * DAY

    def add_category(name, gender, parent, depth):
        nonlocal t
        t += 0.05
        cid = ids.v7(t)
        path = (parent[1] if parent else "") + cid.replace("-", "").lower()
        cat_rows.append((cid, parent[0] if parent else None, name, slugify(name), gender, path, depth, t))
        return cid, path

    for root_name, gender, children in TREE:
        root = add_category(root_name, gender, None, 0)
        for child in children:
            if isinstance(child[1], list):  # a middle node with leaves
                middle = add_category(child[0], gender, root, 1)
                for leaf in child[1]:
                    leaves.append((add_category(leaf[0], gender, middle, 2)[0], gender) + leaf)
            else:
                leaves.append((add_category(child[0], gender, root, 1)[0], gender) + child)
    # Leaf slugs repeat across genders ("shirts"); the app's slugs are unique per parent only.

    # --- brands --------------------------------------------------------------------------------
    brand_names, seen = [], set()
    combos = [(h, tl, s) for s in BRAND_SUFFIX for h in BRAND_HEAD for tl in BRAND_TAIL]
    rng.shuffle(combos)
    for head, tail, suffix in combos:
        name = (head + tail).capitalize() + suffix
        if slugify(name) not in seen:
            seen.add(slugify(name))
            brand_names.append(name)
        if len(brand_names) == args.brands:
            break
    brands = []  # [id, name, slug, created, followers]
    t = t0 - 50 * DAY
    for name in brand_names:
        t += rng.uniform(1, 600)
        brands.append([ids.v7(t), name, slugify(name), t, 0])
    brand_weights = [1 / (i + 3) ** 0.8 for i in range(len(brands))]  # some brands far more popular
    brand_cum = list(accumulate(brand_weights))

    # --- users ----------------------------------------------------------------------------------
    city_counts = apportion(args.stores, [c[5] for c in CITIES])
    user_cities = rng.choices(range(len(CITIES)), weights=[c[5] for c in CITIES], k=args.users)
    owners = min(args.stores, args.users)
    user_times = sorted(rng.uniform(t0 - 40 * DAY, now - DAY) for _ in range(args.users - owners))
    user_times = [t0 - 45 * DAY + i * 60 for i in range(owners)] + user_times  # store owners joined first
    users = []  # dicts
    user_rows = []
    last_ms = 0
    for i in range(args.users):
        c = CITIES[user_cities[i]]
        created = max(user_times[i], (last_ms + 1) / 1000)
        last_ms = int(created * 1000)
        uid = ids.v7(created)
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        username = f"{slugify(first)}.{slugify(last)}.{i}".replace("-", "")[:30]
        has_home = rng.random() < 0.75
        lat, lng = offset(c[1], c[2], rng.gauss(0, 2.0), rng.gauss(0, 2.0)) if has_home else (None, None)
        gender_pref = rng.choices(["all", "women", "men"], weights=[40, 40, 20])[0]
        radius = rng.choices([1, 5, 10, 50], weights=[5, 30, 50, 15])[0]
        email = f"user{i:05d}@bench.atelier.test"
        users.append({"id": uid, "city": user_cities[i], "created": created, "lat": lat, "lng": lng, "email": email,
                      "gender": gender_pref, "radius": radius})
        user_rows.append((uid, email, created + 120, None, password_hash, f"{first} {last}", username, None, None,
                          gender_pref, lat, lng, c[0], radius, "en", c[3], 0, 0, None, None, created, created))
    timings["users"] = time.perf_counter() - tick

    # --- stores ---------------------------------------------------------------------------------
    tick = time.perf_counter()
    stores = []  # dicts
    names_seen = set()
    store_index = 0
    for city_index, count in enumerate(city_counts):
        c = CITIES[city_index]
        for _ in range(count):
            while True:
                name = f"{rng.choice(STORE_FIRST)} {rng.choice(STORE_KIND)}"
                if name in names_seen:
                    name = f"{name} {c[0]}"
                if name not in names_seen:
                    break
            names_seen.add(name)
            owner = users[store_index % len(users)]
            created = owner["created"] + 3600 + store_index
            r = min(6.0, abs(rng.gauss(0, 1.8)))
            angle = rng.uniform(0, 2 * math.pi)
            lat, lng = offset(c[1], c[2], r * math.cos(angle), r * math.sin(angle))
            street = f"{rng.choice(c[6])} {rng.randint(1, 80)}"
            postal = f"{c[7]}{rng.randint(100, 999)}" if c[4] != "SEK" else f"{c[7]}{rng.randint(1, 9)} {rng.randint(10, 99)}"
            stores.append({"id": ids.v7(created), "name": name, "slug": slugify(name), "city": city_index, "lat": round(lat, 5),
                           "lng": round(lng, 5), "street": street, "postal": postal, "created": created, "owner": owner["id"],
                           "followers": 0, "active": 0, "hours": OPENING_HOURS_SUNDAY if rng.random() < 0.3 else OPENING_HOURS})
            store_index += 1
    store_weights = [rng.lognormvariate(0, 0.8) for _ in stores]  # busy and quiet stores
    store_cum = list(accumulate(store_weights))
    stores_by_city = [[i for i, s in enumerate(stores) if s["city"] == ci] for ci in range(len(CITIES))]
    timings["stores"] = time.perf_counter() - tick

    # --- products, variants, media, photos -------------------------------------------------------
    tick = time.perf_counter()
    leaves_by_gender = {g: [leaf for leaf in leaves if leaf[1] == g] for g in GENDER_SHARE}
    product_rows, variant_rows, media_rows, photo_rows = [], [], [], []
    products = []  # (id, created, store index, active)
    span = now - 60 - t_products_start
    times = sorted(t_products_start + rng.random() * span for _ in range(args.products))
    spread = args.spread_hours * 3600
    palette_cum = list(accumulate(PALETTE_WEIGHTS))
    last_ms = 0
    for n in range(args.products):
        ms = max(int(times[n] * 1000), last_ms + 1)
        last_ms = ms
        created = (ms + rng.random() * 0.999) / 1000
        si = rng.choices(range(len(stores)), cum_weights=store_cum)[0]
        store = stores[si]
        city = CITIES[store["city"]]
        gender = rng.choices(list(GENDER_SHARE), weights=list(GENDER_SHARE.values()))[0]
        cat_id, _, cat_name, noun, size_kind, fabrics = rng.choice(leaves_by_gender[gender])
        fabric = rng.choice(fabrics)
        color = rng.choices(PALETTE, cum_weights=palette_cum)[0]
        colors = [color]
        if color != "multi" and rng.random() < 0.15:
            second = rng.choices(PALETTE[:-1], weights=PALETTE_WEIGHTS[:-1])[0]
            if second != color:
                colors.append(second)
        color_name = rng.choice(COLOR_NAMES[color]) if rng.random() < 0.5 else ""
        adjective = rng.choice(ADJECTIVES)
        shape = rng.random()
        if shape < 0.45:
            title = f"{adjective} {fabric.lower()} {noun}"
        elif shape < 0.75:
            title = f"{adjective} {noun}"
        else:
            title = f"{(color_name or color).capitalize()} {fabric.lower()} {noun}"
        description = " ".join([
            f"{adjective} {noun} in {fabric.lower()}, cut with {rng.choice(FITS)}.",
            f"Colour: {color_name.lower() or color}{' and ' + colors[1] if len(colors) > 1 else ''}.",
        ] + rng.sample(DETAILS, rng.randint(1, 2)))
        if city[4] == "EUR":
            price = rng.randint(19, 249) * 100 + 90
        else:
            price = rng.randint(19, 249) * 1000 + 900
        original = None
        if rng.random() < 0.15:
            original = price
            price = price * rng.choice([5, 6, 7]) // 10 // 100 * 100 + (90 if city[4] == "EUR" else 0)
        styles = ",".join(rng.sample(STYLES, rng.choice([1, 1, 2])))
        active = rng.random() < 0.92
        brand = brands[rng.choices(range(len(brands)), cum_weights=brand_cum)[0]][0] if rng.random() < 0.85 else None
        updated = created + (rng.uniform(0, 3 * DAY) if rng.random() < 0.2 else 0)
        updated = min(updated, now - 1)
        pid = ids.v7(created)
        product_rows.append((pid, store["id"], title, description, brand, cat_id, gender, price, original, city[4],
                             ",".join(colors), color_name, fabric, styles, "active" if active else "inactive", None, None,
                             0, created + rng.uniform(-spread, spread), created, updated))
        products.append((pid, created, si, active))
        if active:
            store["active"] += 1
        sizes = SIZES[size_kind]
        count = 1 if size_kind == "one" else rng.randint(1, 3)
        start = rng.randint(0, len(sizes) - count)
        for position, size in enumerate(sizes[start:start + count]):
            sku = f"{store['slug'][:6].upper()}-{n:06d}-{position}" if rng.random() < 0.5 else None
            variant_rows.append((ids.v4(), pid, size, None, rng.choice([0, 1, 1, 2, 2, 3, 4, 5, 8]), sku, position))
        media_created = created - rng.uniform(5, 600)
        mid = ids.v7(media_created)
        content_hash = "%064x" % rng.getrandbits(256)
        folder = f"{content_hash[:2]}\\/{content_hash}"
        variants = "[" + ",".join(
            f'{{"height":{h},"format":"{fmt}","width":{w},"key":"{folder}\\/w{w}.{ext}"}}'
            for w, h in ((1080, 1440), (750, 1000), (540, 720), (270, 360)) for fmt, ext in (("jpeg", "jpg"), ("webp", "webp"))) + "]"
        media_rows.append((mid, store["owner"], "product", pid, "public", content_hash, "jpeg", 1200, 1600,
                           rng.randint(120_000, 420_000), COLOR_HEX[color], PLACEHOLDER, variants, media_created, created))
        photo_rows.append((ids.v4(), pid, mid, 0))
    media_rows.sort(key=lambda r: r[0])
    timings["products (build)"] = time.perf_counter() - tick

    # --- follows ----------------------------------------------------------------------------------
    tick = time.perf_counter()
    follow_rows = []
    brand_index = {b[0]: b for b in brands}
    user_follows = {}  # user index -> (store idx list, brand id list)
    local_cum = [list(accumulate(store_weights[i] for i in pool)) for pool in stores_by_city]
    for ui, u in enumerate(users[owners:], start=owners):
        local = stores_by_city[u["city"]]
        k = min(len(stores), max(0, int(rng.expovariate(1 / 6))) + (1 if rng.random() < 0.9 else 0))
        chosen = set()
        for _ in range(k * 3):
            if len(chosen) >= k:
                break
            if local and rng.random() < 0.85:
                chosen.add(rng.choices(local, cum_weights=local_cum[u["city"]])[0])
            else:
                chosen.add(rng.choices(range(len(stores)), cum_weights=store_cum)[0])
        followed_brands = set()
        for _ in range(rng.choice([0, 0, 1, 2, 3, 5])):
            followed_brands.add(brands[rng.choices(range(len(brands)), cum_weights=brand_cum)[0]][0])
        user_follows[ui] = (sorted(chosen), sorted(followed_brands))
        for si in chosen:
            s = stores[si]
            at = rng.uniform(max(u["created"], s["created"]) + 60, now - 60)
            follow_rows.append((ids.v7(at), u["id"], "store", s["id"], at))
            s["followers"] += 1
        for bid in followed_brands:
            at = rng.uniform(max(u["created"], brand_index[bid][3]) + 60, now - 60)
            follow_rows.append((ids.v7(at), u["id"], "brand", bid, at))
            brand_index[bid][4] += 1
    follow_rows.sort(key=lambda r: r[0])
    timings["follows (build)"] = time.perf_counter() - tick

    # --- likes ------------------------------------------------------------------------------------
    tick = time.perf_counter()
    active_products = [p for p in products if p[3]]
    popularity = list(range(len(active_products)))
    rng.shuffle(popularity)  # popularity rank -> product index
    like_rows = []
    like_counts = {}
    for u in users[owners:]:
        k = int(rng.expovariate(1 / 12))
        liked = set()
        for _ in range(k):
            # skewed: a few products get many likes
            p = active_products[popularity[int(len(popularity) * rng.random() ** 3)]]
            if p[0] in liked:
                continue
            liked.add(p[0])
            at = rng.uniform(max(u["created"], p[1]) + 1, now - 1) if max(u["created"], p[1]) + 1 < now - 1 else now - 1
            like_rows.append((ids.v7(at), u["id"], p[0], at))
            like_counts[p[0]] = like_counts.get(p[0], 0) + 1
    like_rows.sort(key=lambda r: r[0])
    product_rows = [r[:17] + (like_counts.get(r[0], 0),) + r[18:] for r in product_rows]
    timings["likes (build)"] = time.perf_counter() - tick

    # --- write --------------------------------------------------------------------------------------
    tick = time.perf_counter()
    db.execute("BEGIN")
    db.executemany("INSERT INTO categories (id, parent_id, name, slug, gender, path, depth, created_at) VALUES (?,?,?,?,?,?,?,?)",
                   cat_rows)
    db.executemany("INSERT INTO brands (id, name, slug, logo_media_id, status, proposed_by_store_id, created_at, follower_count)"
                   " VALUES (?,?,?,NULL,'approved',NULL,?,?)", [(b[0], b[1], b[2], b[3], b[4]) for b in brands])
    db.executemany(
        "INSERT INTO users (id, email, email_verified_at, pending_email, password_hash, display_name, username, about, birth_date,"
        " gender_preference, home_lat, home_lng, home_city, radius_km, locale, time_zone, is_editor, is_admin, suspended_at,"
        " sessions_valid_after, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", user_rows)
    db.executemany(
        "INSERT INTO stores (id, name, slug, about, phone, email, website, street, postal_code, city, lat, lng, opening_hours,"
        " logo_media_id, cover_media_id, status, follower_count, active_product_count, created_at, updated_at, time_zone)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,NULL,NULL,'active',?,?,?,?,?)",
        [(s["id"], s["name"], s["slug"],
          f"{s['name']} is a local shop at {s['street']}. Come by and try things on — we are happy to help.",
          f"{PHONE_CODES[CITIES[s['city']][4]]} {100000 + i * 3117}", f"hello@{s['slug']}.example", f"https://example.com/{s['slug']}", s["street"], s["postal"],
          CITIES[s["city"]][0], s["lat"], s["lng"], s["hours"], s["followers"], s["active"], s["created"], s["created"] + 600,
          CITIES[s["city"]][3]) for i, s in enumerate(stores)])
    db.executemany("INSERT INTO store_members (id, store_id, user_id, role, created_at) VALUES (?,?,?,'owner',?)",
                   [(ids.v7(s["created"]), s["id"], s["owner"], s["created"]) for s in stores])
    db.execute("COMMIT")
    db.execute("BEGIN")
    db.executemany("INSERT INTO media (id, uploader_id, owner_type, owner_id, visibility, content_hash, format, width, height,"
                   " byte_size, dominant_color, placeholder, variants, created_at, attached_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                   media_rows)
    db.executemany(
        "INSERT INTO products (id, store_id, title, description, brand_id, category_id, gender, price_minor, original_price_minor,"
        " currency, colors, color_name, fabric, styles, status, min_age, external_url, like_count, feed_sort_key, created_at,"
        " updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", product_rows)
    db.executemany("INSERT INTO product_variants (id, product_id, size, color, stock, sku, position) VALUES (?,?,?,?,?,?,?)",
                   variant_rows)
    db.executemany("INSERT INTO product_photos (id, product_id, media_id, position) VALUES (?,?,?,?)", photo_rows)
    db.execute("COMMIT")
    db.execute("BEGIN")
    db.executemany("INSERT INTO follows (id, user_id, target_type, target_id, created_at) VALUES (?,?,?,?,?)", follow_rows)
    db.executemany("INSERT INTO product_likes (id, user_id, product_id, created_at) VALUES (?,?,?,?)", like_rows)
    db.execute("COMMIT")
    timings["insert"] = time.perf_counter() - tick

    # --- checks ----------------------------------------------------------------------------------------
    tick = time.perf_counter()
    problems = []
    checks = {
        "like_count": "SELECT COUNT(*) FROM products p WHERE like_count != (SELECT COUNT(*) FROM product_likes l WHERE l.product_id = p.id)",
        "store follower_count": "SELECT COUNT(*) FROM stores s WHERE follower_count != "
                                "(SELECT COUNT(*) FROM follows f WHERE f.target_type = 'store' AND f.target_id = s.id)",
        "brand follower_count": "SELECT COUNT(*) FROM brands b WHERE follower_count != "
                                "(SELECT COUNT(*) FROM follows f WHERE f.target_type = 'brand' AND f.target_id = b.id)",
        "active_product_count": "SELECT COUNT(*) FROM stores s WHERE active_product_count != "
                                "(SELECT COUNT(*) FROM products p WHERE p.store_id = s.id AND p.status = 'active')",
        "product id order": "SELECT COUNT(*) FROM (SELECT created_at, LAG(created_at) OVER (ORDER BY id) AS prev FROM products) "
                            "WHERE prev > created_at",
    }
    for name, query in checks.items():
        bad = db.execute(query).fetchone()[0]
        if bad:
            problems.append(f"{name}: {bad} rows off")
    fk = db.execute("PRAGMA foreign_key_check").fetchall()
    if fk:
        problems.append(f"foreign keys: {len(fk)} dangling, e.g. {fk[:3]}")
    timings["checks"] = time.perf_counter() - tick
    db.close()
    if problems:
        sys.exit("generated data is inconsistent:\n  " + "\n  ".join(problems))

    # --- search index -------------------------------------------------------------------------------------
    if not args.no_reindex:
        tick = time.perf_counter()
        env = dict(os.environ, DATABASE_URL="sqlite:" + os.path.abspath(args.database),
                   DATA_DIR=os.environ.get("DATA_DIR", os.path.dirname(os.path.abspath(args.database))))
        env.setdefault("LOG_LEVEL", "warning")
        result = subprocess.run([args.atelier, "search-reindex"], env=env, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"atelier search-reindex failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
        timings["search-reindex"] = time.perf_counter() - tick

    # --- lists for the wrk scripts --------------------------------------------------------------------------
    pick = random.Random(args.seed + 1)
    sample = pick.sample([p[0] for p in active_products], min(len(active_products), 6000))
    with open(os.path.join(out_dir, "product_ids.txt"), "w") as f:
        f.write("\n".join(sample[:1000]) + "\n")
    with open(os.path.join(out_dir, "like_product_ids.txt"), "w") as f:
        f.write("\n".join(sample[1000:]) + "\n")
    # Shoppers with a home location whose following feed (their own filters) has products nearby.
    candidates = []
    for ui, (followed, _) in user_follows.items():
        u = users[ui]
        if u["lat"] is None or len(followed) < 2:
            continue
        near = [si for si in followed if distance_km(u["lat"], u["lng"], stores[si]["lat"], stores[si]["lng"]) <= u["radius"]]
        if near:
            candidates.append(u["email"])
    token_users = pick.sample(candidates, min(args.token_users, len(candidates)))
    with open(os.path.join(out_dir, "bench_users.txt"), "w") as f:
        f.write("\n".join(token_users) + "\n")
    with open(os.path.join(out_dir, "places.txt"), "w") as f:
        f.write("".join(f"{c[1]} {c[2]} {c[0]}\n" for c, n in zip(CITIES, city_counts) if n))
    summary = {
        "seed": args.seed, "now": now, "categories": len(cat_rows), "brands": len(brands), "stores": len(stores),
        "users": len(users), "products": len(product_rows), "active_products": len(active_products),
        "variants": len(variant_rows), "media": len(media_rows), "follows": len(follow_rows), "likes": len(like_rows),
        "seconds": round(time.perf_counter() - started, 1),
    }
    with open(os.path.join(out_dir, "data.json"), "w") as f:
        json.dump(summary, f, indent=1)

    print("generated: " + ", ".join(f"{k} {v}" for k, v in summary.items() if k not in ("seed", "now", "seconds")))
    print("timings: " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()) + f"; total {summary['seconds']} s")
    print(f"lists in {out_dir}: product_ids.txt, like_product_ids.txt, bench_users.txt ({len(token_users)}), places.txt")


if __name__ == "__main__":
    main()
