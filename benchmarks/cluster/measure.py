#!/usr/bin/env python3
"""What the parts of `scripts/cluster` spend while benchmarks/cluster/run loads it (standard library and psql only).

    measure.py cpu                      CPU seconds so far of each part, as JSON
    measure.py sample SECONDS OUT       every second for SECONDS: database connections, as JSON lines in OUT
    measure.py report RESULTS           the table for docs/scaling.md from RESULTS (lines written by run)

Parts: each instance (its process), the PostgreSQL primary and the replica (the postmaster with every backend,
live or exited: an exited backend's time is in its parent's cutime), PgBouncer and HAProxy.
Connections: per instance, its clients of PgBouncer (`SHOW CLIENTS`, by application_name) and its connections to
the replica and to the primary (`pg_stat_activity`); PgBouncer's server connections to the primary.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

STATE = Path(__file__).resolve().parents[2] / ".cluster"
TICK = os.sysconf("SC_CLK_TCK")
PSQL = sorted(Path("/usr/lib/postgresql").glob("*/bin/psql"))[-1]


def stat(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # after the command: state ppid ... utime(14) stime(15) cutime(16) cstime(17), counted from 1 with pid, comm
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def tree_cpu(root):
    """CPU seconds of a process, its reaped children, and its live children."""
    total = 0
    _, own, reaped = stat(root)
    total += own + reaped
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid, used, _ = stat(entry.name)
            except (FileNotFoundError, ProcessLookupError, IndexError):
                continue
            if ppid == root:
                total += used
    return total / TICK


def pid_of(name):
    path = STATE / name
    return int(path.read_text().split()[0]) if path.exists() else None


def cpu():
    parts = {}
    for path in sorted(STATE.glob("instance-*.pid")):
        parts[path.stem] = tree_cpu(int(path.read_text()))
    for name, file in (("primary", "pg-primary/postmaster.pid"), ("replica", "pg-replica/postmaster.pid"),
                       ("pgbouncer", "pgbouncer.pid"), ("haproxy", "haproxy.pid")):
        pid = pid_of(file)
        if pid:
            parts[name] = tree_cpu(pid)
    return parts


def rows(port, sql, database="atelier"):
    out = subprocess.run(["runuser", "-u", "postgres", "--", str(PSQL), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
                          "-d", database, "-AtX", "-F", "\t", "-c", sql], capture_output=True, text=True)
    return [line.split("\t") for line in out.stdout.splitlines() if line]


def instance_of(application_name):
    """'atelier pool host:4242' -> ('pool', 'pid 4242'); anything else -> (None, None)."""
    parts = application_name.split()
    if len(parts) == 3 and parts[0] == "atelier":
        return parts[1], "pid " + parts[2].rsplit(":", 1)[-1]
    return None, None


def sample(seconds, out):
    activity = "SELECT application_name, count(*) FROM pg_stat_activity WHERE datname = 'atelier' AND backend_type = 'client backend' GROUP BY 1"
    with open(out, "w") as f:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            row = {"pooler_clients": {}, "replica": {}, "primary_direct": {}, "primary_backends": 0, "pooler_servers": 0}
            for fields in rows(26432, "SHOW CLIENTS", database="pgbouncer"):
                # SHOW CLIENTS: type user database state addr port local_addr local_port connect_time request_time wait wait_us close_needed ptr link remote_pid tls application_name
                use, who = instance_of(fields[-1]) if fields else (None, None)
                if use == "pool":
                    row["pooler_clients"][who] = row["pooler_clients"].get(who, 0) + 1
            for fields in rows(26432, "SHOW SERVERS", database="pgbouncer"):
                row["pooler_servers"] += 1
            for name, count in rows(25433, activity):
                use, who = instance_of(name)
                if use:
                    row["replica"][who] = row["replica"].get(who, 0) + int(count)
            for name, count in rows(25432, activity):
                row["primary_backends"] += int(count)
                use, who = instance_of(name)
                if use in ("listen", "migrate"):
                    row["primary_direct"][who] = row["primary_direct"].get(who, 0) + int(count)
            f.write(json.dumps(row) + "\n")
            f.flush()
            time.sleep(max(0.0, 1.0 - (time.monotonic() % 1.0)))


def report(results):
    """RESULTS: one JSON object per run (run writes them): topology, workload, wrk's RESULT fields, cpu before and after, samples file."""
    lines = ["| topology | workload | req/s | p99 ms | non-2xx | CPU ms per request: instances · primary · replica · PgBouncer · HAProxy "
             "| connections per instance, most seen: to PgBouncer · to the replica · direct to the primary | PgBouncer → primary, most |",
             "|---|---|---|---|---|---|---|---|"]
    for line in Path(results).read_text().splitlines():
        run = json.loads(line)
        requests = max(1, int(run["requests"]))
        spent = {k: run["cpu_after"].get(k, 0) - run["cpu_before"].get(k, 0) for k in run["cpu_after"]}
        instances = sum(v for k, v in spent.items() if k.startswith("instance-"))
        ms = lambda seconds: f"{seconds * 1000 / requests:.2f}"
        samples = [json.loads(s) for s in Path(run["samples"]).read_text().splitlines() if s.strip()]
        most = lambda key: max((max(s[key].values(), default=0) for s in samples), default=0)
        servers = max((s["pooler_servers"] for s in samples), default=0)
        lines.append(f"| {run['topology']} | {run['workload']} | {float(run['rps']):.0f} | {float(run['p99_ms']):.1f} | {run['non2xx']} "
                     f"| {ms(instances)} · {ms(spent.get('primary', 0))} · {ms(spent.get('replica', 0))} · {ms(spent.get('pgbouncer', 0))} · "
                     f"{ms(spent.get('haproxy', 0))} | {most('pooler_clients')} · {most('replica')} · {most('primary_direct')} | {servers} |")
    print("\n".join(lines))


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "cpu":
        print(json.dumps(cpu()))
    elif command == "sample":
        sample(float(sys.argv[2]), sys.argv[3])
    elif command == "report":
        report(sys.argv[2])
    else:
        sys.exit(__doc__)
