"""Selenium fixtures: Debian's headless Chromium at a phone and a desk viewport.

Selenium Manager never runs (it would try to download a driver): the driver is
Debian's /usr/bin/chromedriver, given explicitly, and SE_OFFLINE is set.
A failing test leaves a screenshot and the page's HTML in
test-artifacts/browser/<test>-<viewport>.{png,html}.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

from atelier_testing import REPO_ROOT, item_failed

os.environ["SE_OFFLINE"] = "true"

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
ARTIFACTS = REPO_ROOT / "test-artifacts" / "browser"

VIEWPORTS = {
    "phone": (390, 844),
    "desk": (1366, 900),
}
PHONE_USER_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
)


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request) -> str:
    return request.param


def _options(viewport: str) -> Options:
    width, height = VIEWPORTS[viewport]
    options = Options()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--lang=en-US",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    if viewport == "phone":
        # A real phone viewport: honours <meta name="viewport">, touch, mobile UA.
        options.add_experimental_option(
            "mobileEmulation",
            {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0}, "userAgent": PHONE_USER_AGENT},
        )
    return options


@pytest.fixture
def browser(request, viewport, server):
    """A Chromium WebDriver at the given viewport. Depends on `server` so it is
    torn down (and the screenshot taken) before the server stops."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            pytest.fail(f"{path} not found: run `scripts/install-deps.sh browser`")
    driver_log = ARTIFACTS / f"chromedriver-{request.node.originalname}-{viewport}.log"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    service = Service(executable_path=CHROMEDRIVER, log_output=str(driver_log))
    driver = webdriver.Chrome(service=service, options=_options(viewport))
    if viewport != "phone":
        driver.set_window_size(*VIEWPORTS[viewport])
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        try:
            if item_failed(request.node):
                stem = ARTIFACTS / f"{request.node.originalname}-{viewport}"
                driver.save_screenshot(str(stem.with_suffix(".png")))
                stem.with_suffix(".html").write_text(driver.page_source, encoding="utf-8")
                print(f"\nbrowser: screenshot {stem.with_suffix('.png')} (page at {driver.current_url})")
        finally:
            driver.quit()
            if not item_failed(request.node):
                driver_log.unlink(missing_ok=True)
