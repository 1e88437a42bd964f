#!/usr/bin/env python3
"""One request per PocketBase workload (the URLs of w1.lua … w5.lua), checked and summarised.

    benchmarks/pocketbase/preflight.py URL LISTS_DIR

Fails unless W1 gives the 20 newest active products with their store, W2 active products of the
category in the price range, newest first, W3 a product with store and category, W4 active products
whose title contains "shirt", and W5 adds one like (and the update rule refuses anything else).
"""
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

RECORDS = "/api/collections/products/records"


def call(base, method, path, token=None, body=None):
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = token
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    try:
        with urllib.request.urlopen(urllib.request.Request(base + path, data, headers, method=method), timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read()[:300]


def first(lists, name):
    with open(os.path.join(lists, name)) as f:
        return f.readline().strip()


def listing(filter_, expand=True):
    params = {"filter": filter_, "sort": "-created", "perPage": 20}
    if expand:
        params["expand"] = "store"
    params["skipTotal"] = 1
    return RECORDS + "?" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote, safe="")


def main():
    base, lists = sys.argv[1].rstrip("/"), sys.argv[2]
    category = first(lists, "pb_w2_category.txt")
    product, liked, token = first(lists, "pb_product_ids.txt"), first(lists, "pb_like_product_ids.txt"), first(lists, "pb_tokens.txt")
    problems = []

    def check(name, ok, what):
        if not ok:
            problems.append(f"{name}: {what}")

    def items_of(name, path):
        status, data = call(base, "GET", path)
        print(f"{name} GET {path}")
        if status != 200:
            problems.append(f"{name}: answered {status}: {data!r}")
            return []
        items = data["items"]
        newest_first = all(a["created"] >= b["created"] for a, b in zip(items, items[1:]))
        check(name, newest_first, "not newest first")
        check(name, all(i["active"] for i in items), "inactive products listed")
        if items:
            shown = {k: v for k, v in items[0].items() if k not in ("description", "expand")}
            print(f"  {len(items)} items, newest first: {newest_first}; first: {json.dumps(shown, ensure_ascii=False)}")
        return items

    items = items_of("W1", listing("(active=true)"))
    check("W1", len(items) == 20, f"{len(items)} items")
    check("W1", all(i.get("expand", {}).get("store", {}).get("id") == i["store"] for i in items), "store not embedded")
    if items:
        print(f"  expand.store of the first: {json.dumps(items[0]['expand']['store'], ensure_ascii=False)}")

    items = items_of("W2", listing(f"(active=true && category='{category}' && price>=20000 && price<=80000)"))
    check("W2", len(items) == 20, f"{len(items)} items")
    check("W2", all(i["category"] == category and 20000 <= i["price"] <= 80000 for i in items), "outside the category or price range")
    check("W2", all("store" in i.get("expand", {}) for i in items), "store not embedded")
    print(f"  all in category {category}, prices {sorted(i['price'] for i in items)[:1]}…{sorted(i['price'] for i in items)[-1:]}")

    path = f"{RECORDS}/{product}?expand=store%2Ccategory"
    status, data = call(base, "GET", path)
    print(f"W3 GET {path}")
    check("W3", status == 200, f"answered {status}: {data!r}")
    if status == 200:
        expand = data.get("expand", {})
        check("W3", expand.get("store", {}).get("id") == data["store"] and expand.get("category", {}).get("id") == data["category"],
              "store or category not embedded")
        print(f"  {data['title']!r}, price {data['price']} {data['currency']}, store {expand.get('store', {}).get('name')!r},"
              f" category {expand.get('category', {}).get('name')!r}")

    items = items_of("W4", listing("(active=true && title~'shirt')", expand=False))
    check("W4", len(items) == 20, f"{len(items)} items")
    check("W4", all("shirt" in i["title"].lower() for i in items), "a title without 'shirt'")
    print(f"  titles: {', '.join(i['title'] for i in items[:5])}, …")

    path = f"{RECORDS}/{liked}"
    before = call(base, "GET", path)[1]
    status, after = call(base, "PATCH", path, token, {"likes+": 1})
    print(f"W5 PATCH {path} {{\"likes+\":1}}")
    check("W5", status == 200 and after["likes"] == before["likes"] + 1, f"answered {status}: {after!r} (likes were {before.get('likes')})")
    if status == 200:
        print(f"  likes {before['likes']} -> {after['likes']}")
    check("W5", call(base, "PATCH", path, None, {"likes+": 1})[0] >= 400, "a like without signing in was accepted")
    check("W5", call(base, "PATCH", path, token, {"price": 1})[0] >= 400, "a shopper changed the price")

    if problems:
        sys.exit("preflight failed:\n  " + "\n  ".join(problems))
    print("preflight: all five workloads answer as expected")


if __name__ == "__main__":
    main()
