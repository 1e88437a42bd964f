"""Web page speed on a phone on a phone network (issue 53); run through benchmarks/web/run.

Starts the built server on a scratch SQLite database filled by `atelier seed-demo`, then loads each page
LOADS times in headless Chromium (Debian's, driven by Debian's chromedriver; Selenium Manager never runs):
390x844 with mobile emulation, DevTools' "Slow 4G" network and a 4x CPU slowdown through CDP. Every load
is cold: a new browser with a new, empty profile (no HTTP cache, storage or service worker). After the load
event and SETTLE seconds without input, PerformanceObserver (buffered) gives the Largest Contentful Paint
and the layout shifts (CLS: the sum of the shifts without recent input); the performance log gives each
response's bytes on the wire (Network.loadingFinished encodedDataLength, headers included) and its
decoded body bytes (Network.dataReceived). Prints every load, then per page the medians as a markdown
table with PASS/FAIL against LCP <= 2.5 s and CLS <= 0.1, and the home page's HTML+CSS+JS against its
100 KB budget. Missed targets are reported, not failed: the exit status is non-zero only on errors.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import requests
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never run (it would download a driver)
for _var in ("NO_PROXY", "no_proxy"):  # the local server directly, as tests/python/atelier_testing.py does
    os.environ[_var] = ",".join(filter(None, ["127.0.0.1", "localhost", os.environ.get(_var)]))

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs" / "benchmarks.md"
MARKERS = ("<!-- web:start -->", "<!-- web:end -->")
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")

# Chrome DevTools' "Slow 4G" preset (called "Fast 3G" before May 2024), Slow4GConditions in
# ChromeDevTools/devtools-frontend front_end/core/sdk/NetworkManager.ts: a 150 ms round trip times 3.75
# (DevTools adds latency per request, not per packet), ~1.6 Mbit/s down and ~0.75 Mbit/s up, both times 0.9.
SLOW_4G = {
    "offline": False,
    "latency": 150 * 3.75,  # 562.5 ms
    "downloadThroughput": 1.6 * 1000 * 1000 / 8 * 0.9,  # 180 000 bytes/s
    "uploadThroughput": 750 * 1000 / 8 * 0.9,  # 84 375 bytes/s
    "connectionType": "cellular4g",
}
CPU_SLOWDOWN = 4
# The phone of tests/python/browser/conftest.py.
PHONE = {"width": 390, "height": 844, "pixelRatio": 2.0}
PHONE_USER_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
)
LCP_TARGET_MS = 2500
CLS_TARGET = 0.1
HOME_CODE_BUDGET = 100 * 1024
CODE_TYPES = {"Document", "Stylesheet", "Script"}  # HTML, CSS and JS
SERVED = ("Resources", "Public", "openapi.yaml")  # read by the server from its working directory

DEMO_SHOPPER = ("sara@demo.atelier.test", "atelier-demo-2026")  # SeedDemoCommand: 30 closet items
SEARCH = "/search?q=shirt"

# Reads the Web Vitals of the loaded page: LCP, the layout shifts without recent input and what moved.
VITALS_JS = """
const done = arguments[arguments.length - 1];
const describe = (node) => {
  const element = node && (node.nodeType === 1 ? node : node.parentElement);
  if (!element) return node ? '#text' : '(removed)';
  return element.tagName.toLowerCase() + (element.id ? '#' + element.id : '')
    + [...element.classList].map((name) => '.' + name).join('');
};
const vitals = {lcp: null, lcpElement: null, lcpUrl: '', cls: 0, shifts: []};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    Object.assign(vitals, {lcp: entry.startTime, lcpElement: describe(entry.element), lcpUrl: entry.url});
  }
}).observe({type: 'largest-contentful-paint', buffered: true});
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    vitals.cls += entry.value;
    vitals.shifts.push({at: entry.startTime, value: entry.value, sources: entry.sources.map((s) => describe(s.node))});
  }
}).observe({type: 'layout-shift', buffered: true});
setTimeout(() => {
  const navigation = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  // responseEnd, not responseStart: DevTools' throttling holds the response back after its headers came in.
  Object.assign(vitals, {status: navigation.responseStatus, html: navigation.responseEnd, fcp: fcp ? fcp.startTime : null, load: navigation.loadEventEnd});
  done(vitals);
}, 500);
"""


class BenchError(Exception):
    """Something went wrong (not a missed target): the run exits non-zero."""


@dataclass
class Page:
    name: str
    path: str
    shown: str  # the page as the table shows it (markdown)
    cookies: dict[str, str] = field(default_factory=dict)


@dataclass
class Load:
    vitals: dict
    total_bytes: int
    code_bytes: int
    code_decoded: int
    responses: int
    failed: list[str]


# --- the server -----------------------------------------------------------------------------------

def newest_source_mtime() -> float:
    files = [REPO / "Package.swift", REPO / "Package.resolved", *(REPO / "Sources").rglob("*.swift")]
    return max(path.stat().st_mtime for path in files if path.exists())


def pick_binary() -> Path:
    """ATELIER_BIN, else the release build when it is newer than the sources, else the debug build."""
    if os.environ.get("ATELIER_BIN"):
        chosen = Path(os.environ["ATELIER_BIN"]).resolve()
        if not chosen.exists():
            raise BenchError(f"ATELIER_BIN={chosen} does not exist")
        return chosen
    release = REPO / ".build/release/atelier"
    if release.exists() and release.stat().st_mtime > newest_source_mtime():
        return release
    return REPO / ".build/debug/atelier"


def present(binary: Path, patience_s: float = 900) -> Path:
    """The binary, waiting while it is missing (another build may be linking it)."""
    deadline = time.monotonic() + patience_s
    while not binary.exists():
        if time.monotonic() > deadline:
            raise BenchError(f"{binary} not found (build it, or set ATELIER_BIN)")
        print(f"waiting for {binary} (being linked?)", flush=True)
        time.sleep(10)
    return binary


def build_label(binary: Path, tree: str | None) -> str:
    """Which server: the binary, how it relates to HEAD, and where its templates and static files came from."""
    kind = next((part for part in ("release", "debug") if part in binary.parts), "custom")
    shown = binary.relative_to(REPO) if binary.is_relative_to(REPO) else binary
    linked = binary.stat().st_mtime
    head = git("log", "-1", "--format=%h, committed %cd", "--date=format-local:%H:%M UTC", env=dict(os.environ, TZ="UTC"))
    notes = [f"linked {utc(linked)}", f"HEAD {head}"]
    uncommitted = [REPO / line[3:] for line in git("status", "--porcelain", "--untracked-files=all", "--", "Sources").splitlines()]
    if uncommitted:
        early = any(path.exists() and path.stat().st_mtime < linked for path in uncommitted)
        notes.append("uncommitted changes in Sources/, " + ("some older than the binary" if early else "all newer than the binary"))
    if tree:
        files = f"templates and static files as committed at {tree[:7]}"
    else:
        dirty = git("status", "--porcelain", "--", *SERVED)
        files = "templates and static files from the working tree" + (" (with uncommitted changes)" if dirty else "")
    return f"{kind} build `{shown}` ({'; '.join(notes)}), {files}"


def utc(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def export_tree(revision: str, into: Path) -> Path:
    """What the server reads from its working directory, as committed at `revision`."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", revision, *SERVED], cwd=REPO, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def git(*args: str, env: dict | None = None) -> str:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True, env=env).stdout.strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`atelier seed-demo`, then `atelier serve` on a free port, in DATA_DIR, logging to server.log there."""

    def __init__(self, binary: Path, data_dir: Path, root: Path):
        self.binary, self.data_dir, self.root = binary, data_dir, root
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = data_dir / "server.log"
        self.env = dict(os.environ, DATA_DIR=str(data_dir), DATABASE_URL=f"sqlite:{data_dir}/atelier.sqlite",
                        PUBLIC_BASE_URL=self.base, LOG_LEVEL="warning")
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "Server":
        self.log = open(self.log_path, "ab")
        started = time.monotonic()
        seeding = subprocess.run([present(self.binary), "seed-demo"], cwd=self.root, env=self.env, stdout=self.log,
                                 stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if seeding.returncode != 0:
            raise BenchError(f"seed-demo exited with {seeding.returncode}:\n{self.log_tail()}")
        print(f"seed-demo: {time.monotonic() - started:.0f} s", flush=True)
        self.process = subprocess.Popen([present(self.binary), "serve", "--hostname", "127.0.0.1", "--port", str(self.port)],
                                        cwd=self.root, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            self.wait_healthy()
        except BaseException:
            self.__exit__()
            raise
        return self

    def wait_healthy(self, timeout_s: float = 120) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(f"atelier serve exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                if requests.get(f"{self.base}/health", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise BenchError(f"atelier serve did not answer /health within {timeout_s:.0f} s:\n{self.log_tail()}")

    def log_tail(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-4000:]

    def __exit__(self, *_exc) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


# --- the pages ------------------------------------------------------------------------------------

def first_link(base: str, path: str, prefix: str) -> str:
    """The first href on the page at `path` that starts with `prefix`."""
    answer = requests.get(base + path, timeout=60)
    match = re.search(r'href="(' + re.escape(prefix) + r'[^"]+)"', answer.text)
    if answer.status_code != 200 or not match:
        raise BenchError(f"no link to {prefix}… on {path} (HTTP {answer.status_code})")
    return html.unescape(match.group(1))


def sign_in(base: str, email: str, password: str) -> dict[str, str]:
    """Signs in through the web form (its CSRF token included); the session's cookies."""
    session = requests.Session()
    form = session.get(f"{base}/signin", timeout=60)
    token = re.search(r'name="csrfToken" value="([^"]+)"', form.text)
    if not token:
        raise BenchError("no csrfToken on /signin")
    answer = session.post(f"{base}/signin", data={"csrfToken": token.group(1), "email": email, "password": password},
                          allow_redirects=False, timeout=60)
    if answer.status_code not in (302, 303) or session.get(f"{base}/closet", allow_redirects=False, timeout=60).status_code != 200:
        raise BenchError(f"signing in as {email} failed (HTTP {answer.status_code})")
    return session.cookies.get_dict()


def pages(base: str) -> list[Page]:
    product = first_link(base, SEARCH, "/products/")
    article = first_link(base, first_link(base, "/magazine", "/magazine/issues/"), "/magazine/articles/")
    return [
        Page("home", "/", "`/` (signed out)"),
        Page("search", SEARCH, f"`{SEARCH}`"),
        Page("product", product, "`/products/{id}`, the search's first result"),
        Page("closet", "/closet", f"`/closet` of {DEMO_SHOPPER[0]} (30 items)", sign_in(base, *DEMO_SHOPPER)),
        Page("article", article, "`/magazine/articles/{id}`, the first issue's first"),
    ]


# --- one load -------------------------------------------------------------------------------------

def new_browser(profile: str) -> webdriver.Chrome:
    """Headless Chromium as a phone, with a new profile and the performance (network) log on."""
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=en-US",
                     f"--user-data-dir={profile}", f"--window-size={PHONE['width']},{PHONE['height']}",
                     "--no-proxy-server", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--disable-extensions"):
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": PHONE, "userAgent": PHONE_USER_AGENT})
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_script_timeout(60)
    driver.set_page_load_timeout(180)
    return driver


def throttle(driver: webdriver.Chrome) -> None:
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", SLOW_4G)
    driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def set_cookies(driver: webdriver.Chrome, base: str, cookies: dict[str, str]) -> None:
    for name, value in cookies.items():
        driver.execute_cdp_cmd("Network.setCookie", {"name": name, "value": value, "url": base + "/", "httpOnly": True, "sameSite": "Lax"})


def network_figures(log: list[dict]) -> tuple[int, int, int, int, list[str]]:
    """(bytes on the wire, of which HTML+CSS+JS, HTML+CSS+JS decoded, responses, failed requests) from the performance log."""
    kinds, wire, decoded, failed = {}, {}, defaultdict(int), []
    for entry in log:
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        match message["method"]:
            case "Network.responseReceived":
                kinds[params["requestId"]] = params["type"]
            case "Network.dataReceived":
                decoded[params["requestId"]] += params["dataLength"]
            case "Network.loadingFinished":
                wire[params["requestId"]] = params["encodedDataLength"]
            case "Network.loadingFailed":
                failed.append(f"{params.get('type')}: {params.get('errorText')}")
    code = [request for request in wire if kinds.get(request) in CODE_TYPES]
    return (round(sum(wire.values())), round(sum(wire[r] for r in code)), sum(decoded[r] for r in code), len(wire), failed)


def load_once(base: str, page: Page, settle_s: float) -> Load:
    profile = tempfile.mkdtemp(prefix="atelier-web-bench-profile-")
    driver = new_browser(profile)
    try:
        throttle(driver)
        set_cookies(driver, base, page.cookies)
        driver.get_log("performance")  # drop what came before the page
        driver.get(base + page.path)
        landed = driver.current_url.removeprefix(base)
        if landed != page.path:
            raise BenchError(f"{page.name}: {page.path} ended at {landed}")
        time.sleep(settle_s)
        vitals = driver.execute_async_script(VITALS_JS)
        if vitals["status"] != 200:
            raise BenchError(f"{page.name}: {page.path} answered HTTP {vitals['status']}")
        if vitals["lcp"] is None:
            raise BenchError(f"{page.name}: no largest-contentful-paint entry")
        return Load(vitals, *network_figures(driver.get_log("performance")))
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


# --- figures --------------------------------------------------------------------------------------

def kb(size: float) -> str:
    return f"{size / 1024:.1f} KB"


def describe_load(page: Page, number: int, load: Load) -> str:
    v = load.vitals
    fcp = f"{v['fcp']:.0f}" if v["fcp"] is not None else "-"
    line = (f"{page.name} #{number}: LCP {v['lcp']:.0f} ms ({v['lcpElement']} {v['lcpUrl'][-60:]}) CLS {v['cls']:.3f} "
            f"FCP {fcp} ms, HTML in {v['html']:.0f} ms, load {v['load']:.0f} ms; {kb(load.total_bytes)} in {load.responses} responses, "
            f"HTML+CSS+JS {kb(load.code_bytes)} ({kb(load.code_decoded)} decoded)")
    shifts = "; ".join(f"{s['value']:.3f} at {s['at']:.0f} ms: {', '.join(filter(None, s['sources']))}" for s in v["shifts"])
    failed = f"\n    failed requests: {'; '.join(load.failed)}" if load.failed else ""
    return line + (f"\n    shifts: {shifts}" if shifts else "") + failed


@dataclass
class Summary:
    page: Page
    lcp: float
    lcp_range: tuple[float, float]
    cls: float
    fcp: float
    total_bytes: float
    code_bytes: float
    code_decoded: float
    responses: float
    lcp_element: str
    shift_sources: str

    @property
    def passed(self) -> bool:
        return self.lcp <= LCP_TARGET_MS and self.cls <= CLS_TARGET


def summarise(page: Page, loads: list[Load]) -> Summary:
    """Medians over the loads; the LCP element of the median load; the elements that shifted, with in how many loads."""
    median = lambda pick: statistics.median(pick(load) for load in loads)
    lcps = sorted(load.vitals["lcp"] for load in loads)
    typical = next(load.vitals for load in loads if load.vitals["lcp"] == lcps[len(lcps) // 2])
    lcp_file = Path(typical["lcpUrl"].split("?")[0]).name
    sources = Counter(source for load in loads for source in {s for shift in load.vitals["shifts"] for s in shift["sources"] if s})
    return Summary(
        page, statistics.median(lcps), (lcps[0], lcps[-1]), median(lambda l: l.vitals["cls"]),
        median(lambda l: l.vitals["fcp"] or 0), median(lambda l: l.total_bytes), median(lambda l: l.code_bytes),
        median(lambda l: l.code_decoded), median(lambda l: l.responses),
        typical["lcpElement"] + (f" ({lcp_file})" if lcp_file else ""),
        ", ".join(f"{source} ({count})" for source, count in sources.most_common(3)) or "none",
    )


def describe_run(command: str, build: str, loads: int, settle_s: float, load_average: tuple[float, float]) -> str:
    """The paragraph above the table: when, how, on what."""
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "unknown CPU")
    return (
        f"Measured {datetime.now(timezone.utc):%Y-%m-%d} with `{command}` on {os.cpu_count()} cores ({cpu}; load average "
        f"{load_average[0]:.1f} before the run, {load_average[1]:.1f} after it): {build}; SQLite with `atelier seed-demo`'s data.\n"
        f"Chromium {browser_version()} headless as a phone: {PHONE['width']}×{PHONE['height']} CSS pixels at device pixel ratio "
        f"{PHONE['pixelRatio']:g}, an Android user agent, DevTools' \"Slow 4G\" through CDP ({SLOW_4G['latency']:g} ms added to each "
        f"request, {SLOW_4G['downloadThroughput'] * 8 / 1e6:.2f} Mbit/s down, {SLOW_4G['uploadThroughput'] * 8 / 1e3:.0f} kbit/s up) "
        f"and the CPU slowed {CPU_SLOWDOWN}×. Every load is cold (a new browser with an empty "
        f"profile); median of {loads} loads per page. LCP and CLS from `PerformanceObserver` (buffered), read {settle_s:g} s after "
        f"the load event without input; CLS is the sum of all layout shifts. Bytes are what came over the wire, headers included "
        f"(over plain HTTP Chromium accepts gzip and deflate only). Targets: LCP ≤ 2.5 s and CLS ≤ 0.1 on every page."
    )


def markdown(summaries: list[Summary], about: str) -> str:
    """The docs section: its heading, `about` (from describe_run), the table, the home page's budget."""
    rows = "\n".join(
        f"| {s.page.name} | {s.page.shown} | {s.lcp / 1000:.2f} s ({s.lcp_range[0] / 1000:.2f}–{s.lcp_range[1] / 1000:.2f}) "
        f"| {s.cls:.3f} | {s.fcp / 1000:.2f} s | {kb(s.total_bytes)} | {s.responses:.0f} | {kb(s.code_bytes)} ({kb(s.code_decoded)}) "
        f"| {s.lcp_element} | {s.shift_sources} | {'PASS' if s.passed else 'FAIL'} |" for s in summaries)
    home = next((s for s in summaries if s.page.name == "home"), None)
    budget = (f"\nHome page HTML + CSS + JS: **{kb(home.code_bytes)}** on the wire ({kb(home.code_decoded)} decoded); "
              f"budget ≤ 100 KB compressed: **{'met' if home.code_bytes <= HOME_CODE_BUDGET else 'missed'}**.\n") if home else ""
    return f"""{MARKERS[0]}
## Web pages on a phone (issue 53)

{about}

| page | path | LCP (min–max) | CLS | FCP | transferred | responses | HTML+CSS+JS (decoded) | LCP element (median load) | shifted (in loads) | LCP and CLS |
|---|---|---|---|---|---|---|---|---|---|---|
{rows}
{budget}{MARKERS[1]}"""


def write_docs(section: str) -> None:
    text = DOCS.read_text()
    start, end = text.find(MARKERS[0]), text.find(MARKERS[1])
    if start >= 0 and end > start:
        text = text[:start] + section + text[end + len(MARKERS[1]):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    DOCS.write_text(text)
    print(f"wrote the section into {DOCS.relative_to(REPO)}")


# --- main -----------------------------------------------------------------------------------------

def measure(base: str, loads: int, settle_s: float) -> list[Summary]:
    summaries = []
    for page in pages(base):
        results = []
        for number in range(1, loads + 1):
            results.append(load_once(base, page, settle_s))
            print(describe_load(page, number, results[-1]), flush=True)
        summaries.append(summarise(page, results))
    return summaries


def browser_version() -> str:
    return subprocess.run([CHROMEDRIVER, "--version"], capture_output=True, text=True).stdout.split()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5, help="cold loads per page (the median is reported)")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds after the load event before reading LCP and CLS")
    parser.add_argument("--data-dir", type=Path, help="keep the seeded data here (reused when it exists); default a scratch folder")
    parser.add_argument("--tree", metavar="REV", help="serve Resources/, Public/ and openapi.yaml as committed at REV "
                        "(default: the working tree, as the tests do)")
    parser.add_argument("--docs", action="store_true", help="write the section into docs/benchmarks.md")
    args = parser.parse_args()

    started = time.monotonic()
    command = " ".join(["benchmarks/web/run", *sys.argv[1:]])
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="atelier-web-bench-"))
    data_dir.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()[0]
    try:
        binary = present(pick_binary())
        tree = git("rev-parse", "--verify", f"{args.tree}^{{commit}}") if args.tree else None
        build = build_label(binary, tree)
        print(f"binary: {binary}\nserver: {build}\ndata: {data_dir}", flush=True)
        root = export_tree(tree, data_dir / "tree") if tree else REPO
        with Server(binary, data_dir, root) as server:
            summaries = measure(server.base, args.loads, args.settle)
        about = describe_run(command, build, args.loads, args.settle, (load_before, os.getloadavg()[0]))
        section = markdown(summaries, about)
        print("\n" + section)
        if args.docs:
            write_docs(section)
        print(f"\n{sum(not s.passed for s in summaries)} of {len(summaries)} pages miss a target; took {time.monotonic() - started:.0f} s")
        return 0
    except (BenchError, WebDriverException, requests.RequestException, subprocess.CalledProcessError) as error:
        print(f"error: {error}" + (f"\n{error.stderr}" if getattr(error, "stderr", None) else ""), file=sys.stderr)
        return 1
    finally:
        if not args.data_dir:
            shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
