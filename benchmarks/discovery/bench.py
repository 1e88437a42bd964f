#!/usr/bin/env python3
"""Helpers of benchmarks/discovery/run (standard library only).

    bench.py login URL LISTS COUNT PASSWORD      signs in COUNT users of LISTS/bench_users.txt -> LISTS/tokens.txt
    bench.py preflight URL LISTS                 one request per workload; fails unless each is 2xx
    bench.py report WORKDIR DOC                  writes the discovery section of DOC (docs/benchmarks.md)
"""
import concurrent.futures
import json
import os
import re
import sys
import urllib.error
import urllib.request


def call(method, url, token=None, body=None):
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def lines(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def login(base, lists, count, password):
    emails = lines(os.path.join(lists, "bench_users.txt"))[:count]
    if len(emails) < count:
        print(f"only {len(emails)} shoppers listed in bench_users.txt (asked for {count})", file=sys.stderr)

    def one(email):
        status, body = call("POST", base + "/api/v1/auth/login", body={"email": email, "password": password})
        if status != 200:
            raise SystemExit(f"login of {email} answered {status}: {body[:300]!r}")
        return json.loads(body)["accessToken"]

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        tokens = list(pool.map(one, emails))
    with open(os.path.join(lists, "tokens.txt"), "w") as f:
        f.write("\n".join(tokens) + "\n")
    print(f"signed in {len(tokens)} users")


def preflight(base, lists):
    token = lines(os.path.join(lists, "tokens.txt"))[0]
    lat, lng = lines(os.path.join(lists, "places.txt"))[0].split()[:2]
    product = lines(os.path.join(lists, "product_ids.txt"))[0]
    liked = lines(os.path.join(lists, "like_product_ids.txt"))[-1]
    checks = [
        ("following", "GET", "/api/v1/feed/following", token),
        ("discover", "GET", f"/api/v1/feed/discover?gender=women&radiusKm=10&lat={lat}&lng={lng}", token),
        ("search", "GET", "/api/v1/search/products?q=shirt&color=blue", None),
        ("product", "GET", f"/api/v1/products/{product}", None),
        ("like", "PUT", f"/api/v1/products/{liked}/like", token),
    ]
    failed = False
    for name, method, path, auth in checks:
        status, body = call(method, base + path, auth)
        summary = ""
        if status < 300:
            data = json.loads(body)
            if "items" in data:
                summary = f"{len(data['items'])} items" + (f" of {data['total']}" if "total" in data else "")
                if name == "following" and not data["items"]:
                    summary += " (empty: the signed-in shopper follows nothing nearby)"
                    failed = True
            elif "likeCount" in data:
                summary = f"likeCount {data['likeCount']}"
            else:
                summary = data.get("title", "")
        else:
            failed = True
            summary = body[:300].decode(errors="replace")
        print(f"  {name:<10} {status} {method} {path[:90]}  {summary}")
    if failed:
        raise SystemExit("preflight failed")


def collect(work):
    """The run's figures: results.txt lines `name|RESULT …|VmHWM kB` and the run's facts from the environment."""
    workloads = []
    for line in lines(os.path.join(work, "results.txt")):
        name, result, hwm_kb = line.split("|")
        fields = dict(kv.split("=") for kv in result.split()[1:])
        workloads.append({
            "name": name, "requests": int(fields["requests"]), "rps": float(fields["rps"]),
            "p50_ms": float(fields["p50_ms"]), "p99_ms": float(fields["p99_ms"]), "non2xx": int(fields["non2xx"]),
            "errors": sum(int(fields[k]) for k in ("connect", "read", "write", "timeout")), "hwm_mb": int(hwm_kb) / 1024})
    env = os.environ
    return {
        "data": json.load(open(os.path.join(work, "lists", "data.json"))), "workloads": workloads,
        "cities": len(lines(os.path.join(work, "lists", "places.txt"))),
        "hwm_mb": int(env["BENCH_HWM_KB"]) / 1024, "server_errors": int(env["BENCH_SERVER_ERRORS"]),
        "build": env["BENCH_BUILD"], "date": env["BENCH_DATE"], "command": env["BENCH_COMMAND"], "commit": env["BENCH_COMMIT"],
        "nproc": env["BENCH_NPROC"], "cpu": env["BENCH_CPU"], "wrk": env["BENCH_WRK"], "duration": env["BENCH_DURATION"],
        "warmup": env["BENCH_WARMUP"], "tokens": env["BENCH_TOKENS"],
        "sqlite_connections": env.get("BENCH_SQLITE_CONNECTIONS", "?"),
    }


def report(work, doc_path):
    r = collect(work)
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(r, f, indent=1)
    data = r["data"]
    build = r["build"]
    debug = build != "release"
    targets = {
        "following": ("p99 < 50 ms, ≥ 1 500 req/s", 50, 1500),
        "discover": ("p99 < 50 ms, ≥ 1 500 req/s", 50, 1500),
        "product": ("p99 < 50 ms, ≥ 1 500 req/s", 50, 1500),
        "search": ("p99 < 100 ms", 100, None),
        "like": ("–", None, None),
    }
    requests = {
        "following": "`GET /feed/following` (signed in, own filters)",
        "discover": "`GET /feed/discover?gender=women&radiusKm=10&lat=…&lng=…` (signed in)",
        "search": "`GET /search/products?q=shirt` and 11 more words/filters/sorts",
        "product": "`GET /products/{id}` over 1 000 products",
        "like": "`PUT /products/{id}/like` (signed in, new likes)",
    }
    rows = []
    for w in r["workloads"]:
        label, p99_max, rps_min = targets[w["name"]]
        verdict = ""
        if w["requests"] == 0:
            verdict = " — no requests"
        elif w["non2xx"] + w["errors"]:
            verdict = " — **failed requests**"
        elif p99_max is not None:
            ok = w["p99_ms"] < p99_max and (rps_min is None or w["rps"] >= rps_min)
            verdict = " — met" if ok else " — missed"
        errors = w["non2xx"] + w["errors"]
        rows.append(
            f"| {w['name']} | {requests[w['name']]} | {w['rps']:.0f} | {w['p50_ms']:.1f} ms | {w['p99_ms']:.1f} ms | "
            f"{label}{verdict} | {w['requests']}{' (' + str(errors) + ' failed)' if errors else ''} | {w['hwm_mb']:.0f} MB |")
    build_note = (
        "**DEBUG BUILD — these figures only show that the harness works; they say nothing about the targets.** "
        "Re-run with a release build (`swift build -c release --product atelier --scratch-path .build-release`, "
        "then `benchmarks/discovery/run`)." if debug else "Release build.")
    section = f"""<!-- discovery:start -->
## Discovery: feeds, search, product detail, like ({build} build)

{build_note}

Measured {r['date']} with `{r['command']}` on {r['nproc']} cores ({r['cpu']}), commit {r['commit']}, {build} build.
Data from `benchmarks/discovery/generate.py` (seed {data['seed']}): {data['products']:,} products ({data['active_products']:,} active)
in {data['stores']} stores in {r['cities']} cities, {data['brands']} brands, {data['categories']} categories, {data['users']:,} users,
{data['follows']:,} follows, {data['likes']:,} likes; generated and indexed in {data['seconds']:.0f} s. SQLite, `DATABASE_POOL_SIZE=16`.
Load: {r['wrk']}, `-t2 -c16 -d{r['duration']} --latency` per workload after a {r['warmup']} warm-up, {r['tokens']} signed-in
users in turn, client and server on the same machine over loopback.

| workload ({build} build) | request | req/s | p50 | p99 | target | requests | server peak RSS so far |
|---|---|---|---|---|---|---|---|
""" + "\n".join(rows) + f"""

Server peak RSS (VmHWM) over the whole run: {r['hwm_mb']:.0f} MB. SQLite connections the server had open at the end:
{r['sqlite_connections']}. Error lines in the server log: {r['server_errors']}.
"""
    text = open(doc_path).read() if os.path.exists(doc_path) else \
        "# Benchmarks\n\nFigures and how they were produced. Re-run the scripts named in each section to update them.\n"
    if "<!-- discovery:start -->" in text:
        text = re.sub(r"<!-- discovery:start -->.*?<!-- discovery:end -->\n?", lambda _: section + "<!-- discovery:end -->\n",
                      text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "<!-- discovery:end -->\n"
    with open(doc_path, "w") as f:
        f.write(text)
    print(section)


if __name__ == "__main__":
    command, rest = sys.argv[1], sys.argv[2:]
    if command == "login":
        login(rest[0], rest[1], int(rest[2]), rest[3])
    elif command == "preflight":
        preflight(rest[0], rest[1])
    elif command == "report":
        report(rest[0], rest[1])
    else:
        raise SystemExit(__doc__)
