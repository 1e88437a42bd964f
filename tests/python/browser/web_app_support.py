"""DevTools helpers for the web-app tests (issue 53): the service worker's own DevTools target,
network conditions on the page *and* on the worker (the page's offline emulation does not reach
the worker, which would otherwise still fetch from the server), and failing chosen answers.

Selenium's `execute_cdp_cmd` talks to the page only and cannot receive events, so these open
their own DevTools WebSocket to a target (websocket-client, a dependency of selenium).
"""

from __future__ import annotations

import itertools
import json
import threading
import time

import requests
import websocket

ONLINE = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


class Session:
    """One DevTools session on one target, over its WebSocket."""

    def __init__(self, url: str) -> None:
        self.socket = websocket.create_connection(url, suppress_origin=True, timeout=30)
        self.ids = itertools.count(1)
        self.events: list[dict] = []

    def send(self, method: str, params: dict | None = None) -> dict:
        ident = next(self.ids)
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def close(self) -> None:
        self.socket.close()


def targets(driver, kind: str) -> list[dict]:
    address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
    return [t for t in requests.get(f"http://{address}/json/list", timeout=10).json() if t["type"] == kind]


def wait_for_worker(driver) -> None:
    """Until the page is controlled by the service worker (registered and claimed)."""
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.serviceWorker.ready.then(() => done(true));"
    )
    deadline = time.monotonic() + 20
    while not driver.execute_script("return !!navigator.serviceWorker.controller"):
        if time.monotonic() > deadline:
            raise AssertionError("the page is not controlled by the service worker")
        driver.refresh()
        time.sleep(0.3)


class Network:
    """Offline and online for the page and its service worker. The worker's conditions live as long
    as its DevTools session, so the sessions stay open while offline."""

    def __init__(self, driver) -> None:
        self.driver = driver
        self.workers: list[Session] = []
        driver.execute_cdp_cmd("Network.enable", {})

    def set(self, conditions: dict, page: bool = True, worker: bool = True) -> None:
        if page:
            self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
        if worker:
            if conditions["offline"]:
                self._close_workers()
                for target in targets(self.driver, "service_worker"):
                    session = Session(target["webSocketDebuggerUrl"])
                    session.send("Network.enable")
                    session.send("Network.emulateNetworkConditions", conditions)
                    self.workers.append(session)
                assert self.workers, "no service worker target to take offline"
            else:
                for session in self.workers:
                    session.send("Network.emulateNetworkConditions", conditions)
                self._close_workers()

    def offline(self) -> None:
        self.set(OFFLINE)

    def online(self, worker: bool = True) -> None:
        self.set(ONLINE, worker=worker)

    def _close_workers(self) -> None:
        for session in self.workers:
            session.close()
        self.workers = []


class AnswerDropper:
    """Lets the server get and answer the page's requests to URLs matching `pattern`, and makes the
    first `drop` answers look, to the page, like a dropped connection (Fetch.failRequest at the
    response stage): the server did the work, the page never heard. Counts every request seen."""

    def __init__(self, driver, pattern: str, drop: int = 1) -> None:
        page = targets(driver, "page")[0]
        self.session = Session(page["webSocketDebuggerUrl"])
        self.session.send("Fetch.enable", {"patterns": [{"urlPattern": pattern, "requestStage": "Response"}]})
        self.drop = drop
        self.seen: list[str] = []
        self.stopping = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.session.socket.settimeout(0.5)
        while not self.stopping:
            try:
                message = json.loads(self.session.socket.recv())
            except websocket.WebSocketTimeoutException:
                continue
            except Exception:
                return
            if message.get("method") != "Fetch.requestPaused":
                continue
            params = message["params"]
            self.seen.append(params["request"]["url"])
            ident = next(self.session.ids)
            if len(self.seen) <= self.drop:
                command = {"id": ident, "method": "Fetch.failRequest", "params": {"requestId": params["requestId"], "errorReason": "ConnectionClosed"}}
            else:
                command = {"id": ident, "method": "Fetch.continueRequest", "params": {"requestId": params["requestId"]}}
            self.session.socket.send(json.dumps(command))

    def close(self) -> None:
        self.stopping = True
        self.thread.join(timeout=5)
        self.session.close()


def queued(driver) -> list[dict]:
    """The actions the page's IndexedDB queue holds."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "AtelierQueue.all().then(done, () => done(null));"
    )
