"""Accessibility in a real browser (issue 53): axe-core on every page type, and a keyboard-only purchase.

`test_axe_on_every_page_type` seeds, through the API, a store that takes orders with a branded product,
a published magazine issue, and a shopper with a closet piece, a moment with a photo, an order and a
cart. Then, in one browser session, it visits every page type signed out, as the shopper and as the
store's staff (who is also an admin and a magazine editor), forms showing their errors included, and
runs axe-core on each (selenium-axe-python). It fails with one line per serious or critical violation,
per page that scrolls sideways (reflow, which axe does not check) and per field error no field's
aria-describedby names. It runs on a phone (390×844, mobile emulation) and at 1280×800.

`test_keyboard_only_purchase` signs in, searches, likes a product, adds it to the cart and checks out
with the keyboard alone (Tab, Shift+Tab, Enter, Space and typing; never a click), and checks that
everything it presses or chooses shows a focus ring.
"""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium_axe_python import Axe

from test_commerce_flow import SETTINGS, shop
from test_portal_flow import api, gradient_png, make_store
from web_page import PASSWORD, Page

# The desk size here is the issue's 1280×800 rather than conftest's 1366×900.
DESK_METRICS = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}
WIDTHS = {"phone": 390, "desk": DESK_METRICS["width"]}  # the phone's is conftest's
BLOCKING_IMPACTS = ("serious", "critical")
BUCHAREST = {"lat": 44.4268, "lng": 26.1025}


@pytest.fixture(params=["phone", "desk"])
def viewport(request) -> str:
    return request.param


@pytest.fixture
def sized_browser(browser, viewport) -> WebDriver:
    if viewport == "desk":
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", DESK_METRICS)
    return browser


# --- Seeding through the API ------------------------------------------------------------------------


def created(response: requests.Response) -> dict:
    assert response.status_code in (200, 201), f"{response.request.method} {response.url}: {response.status_code} {response.text}"
    return response.json()


def sign_up_api(server, email: str, name: str) -> str:
    """A new member; returns their user id."""
    return created(api(server, "POST", "/auth/signup", json={"email": email, "password": PASSWORD, "displayName": name}))["user"]["id"]


def login(server, email: str) -> str:
    return created(api(server, "POST", "/auth/login", json={"email": email, "password": PASSWORD}))["accessToken"]


def upload(server, token: str, photo: Path) -> str:
    return created(api(server, "POST", "/media", token, files={"file": (photo.name, photo.read_bytes(), "image/png")}))["id"]


def checkout(server, token: str) -> str:
    """Orders the cart for pickup, paid in the shop; returns the order's id."""
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}
    body = {"fulfilment": "pickup", "paymentMethod": "payAtStore"}
    return created(requests.post(server.api("/checkout"), headers=headers, json=body, timeout=30))["orders"][0]["id"]


@dataclass
class World:
    staff_email: str
    shopper_email: str
    store_id: str
    store_slug: str
    product_id: str
    brand_slug: str
    issue_id: str
    article_id: str
    moment_id: str
    photo_id: str
    order_id: str


def publish_issue(server, token: str, tmp_path: Path) -> tuple[str, str]:
    """A published issue with one article in English and Romanian; returns their ids."""
    issue = created(api(server, "POST", "/magazine/editor/issues", token,
                        json={"number": random.randint(100_000, 9_999_999), "labels": {"en": "Spring", "ro": "Primăvara"}}))
    article = created(api(server, "POST", f"/magazine/editor/issues/{issue['id']}/articles", token, json={
        "leadImageId": upload(server, token, gradient_png(tmp_path / "lead.png", 640, 400)),
        "texts": {"en": {"title": "Wool in winter", "summary": "Why wool keeps you warm.", "markdown": "Wool is **warm**."},
                  "ro": {"title": "Lâna iarna", "summary": "De ce lâna ține de cald.", "markdown": "Lâna este *caldă*."}}}))
    created(api(server, "POST", f"/magazine/editor/articles/{article['id']}/publish", token))
    created(api(server, "POST", f"/magazine/editor/issues/{issue['id']}/publish", token))
    return issue["id"], article["id"]


def seed(server, tmp_path: Path, unique_email) -> World:
    staff_email, shopper_email = unique_email("a11y-staff"), unique_email("a11y-shopper")
    staff_id = sign_up_api(server, staff_email, "Stina Staff")
    sign_up_api(server, shopper_email, "Sara Shopper")
    store_id, slug, dresses = make_store(server, staff_email)
    admin = login(server, staff_email.replace("@", "-admin@"))  # make_store's admin
    staff, shopper = login(server, staff_email), login(server, shopper_email)
    created(api(server, "PATCH", f"/admin/users/{staff_id}", admin, json={"isAdmin": True, "isEditor": True}))
    created(api(server, "PUT", f"/stores/{store_id}/commerce", staff, json=SETTINGS))

    brand = created(api(server, "POST", "/brands", admin, json={"name": f"Nord {uuid.uuid4().hex[:6]}"}))
    product = created(api(server, "POST", f"/stores/{store_id}/products", staff, json={
        "title": "Linen wrap dress", "description": "A light dress for warm days.", "brandId": brand["id"],
        "categoryId": dresses, "gender": "women", "price": {"amount": 89900, "currency": "SEK"}, "colors": ["white"],
        "styles": ["casual"], "variants": [{"size": "S", "stock": 3}, {"size": "M", "stock": 3}],
        "photoIds": [upload(server, staff, gradient_png(tmp_path / "dress.png", 600, 800))], "status": "active"}))
    size_s, size_m = (next(v["id"] for v in product["variants"] if v["size"] == size) for size in ("S", "M"))
    issue_id, article_id = publish_issue(server, admin, tmp_path)

    # The shopper: the dress in the closet, a moment with a photo, an order for S, and M in the cart.
    created(api(server, "POST", "/me/closet/items", shopper, json={"productId": product["id"]}))
    moment = created(api(server, "POST", "/moments/quick", shopper, json=BUCHAREST))
    photo = created(api(server, "POST", f"/moments/{moment['id']}/photos", shopper, json={
        "mediaId": upload(server, shopper, gradient_png(tmp_path / "moment.png", 320, 240)), "caption": "Confetti everywhere"}))
    created(api(server, "POST", "/cart/lines", shopper, json={"variantId": size_s, "quantity": 1}))
    order_id = checkout(server, shopper)
    created(api(server, "POST", "/cart/lines", shopper, json={"variantId": size_m, "quantity": 1}))
    return World(staff_email, shopper_email, store_id, slug, product["id"], brand["slug"], issue_id, article_id,
                 moment["id"], photo["id"], order_id)


# --- axe-core ------------------------------------------------------------------------------------------


# Field errors nobody's aria-describedby names, and fields marked invalid without a description.
UNTIED_ERRORS = """
const described = id => id && document.querySelector('[aria-describedby~="' + CSS.escape(id) + '"]');
const names = field => (field.getAttribute('aria-describedby') || '').split(/\\s+/).some(id => id && document.getElementById(id));
return [...document.querySelectorAll('.field-error')].filter(error => !described(error.id))
  .concat([...document.querySelectorAll('[aria-invalid="true"]')].filter(field => !names(field)))
  .map(element => element.outerHTML.slice(0, 120));
"""


# WCAG 1.4.10 (reflow), which axe does not check: nothing makes the page scroll sideways. To name what
# sticks out, the page is laid out once more at the width (a phone widens its layout to fit the content).
SIDEWAYS = """
const width = arguments[0], root = document.documentElement, out = e => e.getBoundingClientRect().right > width + 1;
if (root.scrollWidth <= width) return [];
window.scrollTo(0, window.scrollY);
root.style.width = width + 'px';
const culprits = [...document.querySelectorAll('body *')].filter(e => out(e) && !out(e.parentElement));
root.style.width = '';
return [root.scrollWidth + ' px wide'].concat(culprits.slice(0, 3).map(e => e.outerHTML.slice(0, 100)));
"""


def describe(violation: dict, shown: int = 5) -> str:
    """One line: the rule, its impact and the first few elements that break it."""
    nodes = violation["nodes"]
    targets = "; ".join(" ".join(node["target"]) for node in nodes[:shown])
    more = f" (+{len(nodes) - shown} more)" if len(nodes) > shown else ""
    return f"{violation['id']} ({violation['impact']}) {violation['help']} — {targets}{more}"


class Audit:
    """Audits pages (axe-core's serious and critical violations, reflow, error ties) and collects the findings."""

    def __init__(self, page: Page, width: int) -> None:
        self.page = page
        self.width = width
        self.axe = Axe(page.driver)
        self.findings: list[str] = []
        self.pages = 0

    def visit(self, path: str, ready: str) -> None:
        """Opens `path`, waits until `ready` (what shows the page is the one meant) is visible, audits it."""
        self.page.open(path)
        self.page.visible(ready)
        self.run(path)

    def run(self, label: str) -> None:
        self.pages += 1
        # What a closed <details> holds (filters, forms folded away) is hidden, and axe skips hidden parts.
        self.page.driver.execute_script("document.querySelectorAll('details').forEach(function (d) { d.open = true; });")
        self.axe.inject()
        results = self.axe.run(options=json.dumps({"resultTypes": ["violations"]}))
        self.findings += [f"{label}: {describe(v)}" for v in results["violations"] if v["impact"] in BLOCKING_IMPACTS]
        wide = self.page.driver.execute_script(SIDEWAYS, self.width)
        if wide:
            self.findings.append(f"{label}: scrolls sideways at {self.width} px (reflow) — " + "; ".join(wide))

    def submit_invalid(self, path: str, form_id: str, label: str, **fields: str) -> None:
        """Submits the form with `fields` (wrong or missing values) and audits the page that shows the errors."""
        self.page.open(path)
        form = self.page.form(form_id)
        self.page.fill(form, **fields)
        self.page.submit(form)
        self.page.visible(".form-error, .field-error")
        self.run(label)
        untied = self.page.driver.execute_script(UNTIED_ERRORS)
        self.findings += [f"{label}: error text not tied to its field (aria-describedby) — {html}" for html in untied]

    def report(self) -> str:
        return f"{len(self.findings)} accessibility problems on {self.pages} pages:\n" + "\n".join(self.findings)


# --- Keyboard -------------------------------------------------------------------------------------------


FOCUS_RING = """
const element = document.activeElement, style = getComputedStyle(element);
const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
return {outline: outline, shadow: style.boxShadow !== 'none', focusVisible: element.matches(':focus-visible'),
        element: element.outerHTML.slice(0, 120)};
"""


class Keyboard:
    """Drives the page with key presses only: they go to whatever has the focus, as a person's would."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.driver = page.driver

    def press(self, *keys: str) -> None:
        ActionChains(self.driver).send_keys(*keys).perform()

    def type(self, text: str) -> None:
        self.press(text)

    def focused(self, css: str) -> bool:
        return self.driver.execute_script("return document.activeElement.matches(arguments[0]);", css)

    def tab_to(self, css: str, backwards: bool = False, limit: int = 80) -> None:
        """Presses Tab (Shift+Tab when `backwards`) until the focused element matches `css`."""
        seen = []
        for _ in range(limit):
            if backwards:
                ActionChains(self.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
            else:
                self.press(Keys.TAB)
            if self.focused(css):
                return
            seen.append(self.driver.execute_script("return document.activeElement.outerHTML.slice(0, 80);"))
        pytest.fail(f"{'Shift+' if backwards else ''}Tab never reached {css}; it went through:\n" + "\n".join(seen))

    def assert_focus_ring(self) -> None:
        ring = self.driver.execute_script(FOCUS_RING)
        assert ring["focusVisible"] and (ring["outline"] or ring["shadow"]), f"no visible focus ring on {ring['element']}: {ring}"

    def press_on(self, css: str, key: str = Keys.ENTER) -> None:
        """Tabs to `css`, checks its focus ring and presses `key` on it, waiting for the page it leads to."""
        self.tab_to(css)
        self.assert_focus_ring()
        self.page.wait_for_new_page(lambda: self.press(key))

    def choose(self, css: str, backwards: bool = False) -> None:
        """Tabs to the radio button or checkbox `css`, checks its focus ring and ticks it with Space."""
        self.tab_to(css, backwards)
        self.assert_focus_ring()
        self.press(Keys.SPACE)
        assert self.driver.find_element(By.CSS_SELECTOR, css).is_selected(), f"Space did not tick {css}"


# --- The tests ------------------------------------------------------------------------------------------


def test_axe_on_every_page_type(sized_browser, viewport, server, unique_email, tmp_path):
    world = seed(server, tmp_path, unique_email)
    page = Page(sized_browser, server.base_url)
    audit = Audit(page, WIDTHS[viewport])
    product, moment, portal = f"/products/{world.product_id}", f"/moments/{world.moment_id}", f"/portal/stores/{world.store_id}"
    article = f"/magazine/articles/{world.article_id}"

    # Signed out: each path with what shows the page is the one meant (not an error or an empty state).
    signed_out = {
        "/": "#home-visitor", "/search?q=linen": "#search-page .product-card", product: "#product-page #add-to-cart-form",
        f"/stores/{world.store_slug}": "#store-page .product-card", f"/brands/{world.brand_slug}": "#brand-page .product-card",
        "/magazine": "#magazine-page #issues li", f"/magazine/issues/{world.issue_id}": "#issue-page #articles li",
        article: "#article-page[lang='en'] #article-body", f"{article}?lang=ro": "#article-page[lang='ro'] #article-body",
        "/signin": "#signin-form", "/signup": "#signup-form", "/forgot-password": "main#main form", "/contact": "main#main form",
    }
    for path, ready in signed_out.items():
        audit.visit(path, ready)
    page.open(product)
    page.submit(page.form("add-to-cart-form"))
    page.visible("#cart-page #signin-to-checkout")
    audit.run("/cart")
    audit.submit_invalid("/signup", "signup-form", "/signup (errors)", email="not an address", password="short")
    audit.submit_invalid("/signin", "signin-form", "/signin (errors)", email=world.shopper_email, password="wrong password")

    page.sign_in(world.shopper_email)
    shopper = {
        "/": "#home-member", product: "#product-page #like-form", "/closet": "#closet-grid .closet-tile",
        "/outfits/new": "#piece-tray .tray-piece", "/calendar": "#calendar-page", moment: "#moment-page #album li",
        f"{moment}/photos/{world.photo_id}": "#moment-photo-page figure", "/cart": "#cart-page #checkout-form",
        "/orders": "#orders-page li", f"/orders/{world.order_id}": "#order-page", "/settings": "#profile-form",
        "/moments": "main#main", "/outfits": "main#main", "/wishlist": "main#main", "/ootd": "main#main",
        "/friends": "main#main", "/notifications": "main#main",
    }
    for path, ready in shopper.items():
        audit.visit(path, ready)
    # The outfit canvas with a piece on it, placed from the keyboard.
    page.open("/outfits/new")
    keys = Keyboard(page)
    keys.tab_to("#piece-tray .tray-button")
    keys.press(Keys.ENTER)
    page.visible("#outfit-canvas img.placed-piece")
    page.visible("#piece-tools")
    audit.run("/outfits/new (a piece placed)")
    page.sign_out()

    page.sign_in(world.staff_email)
    staff = {
        f"{portal}/products": "#product-list", f"{portal}/products/new": "#product-form",
        f"{portal}/products/{world.product_id}/edit": "#product-form #kept-photos", f"{portal}/orders": "#portal-orders",
        f"{portal}/stock": "main#main", f"{portal}/profile": "#profile-form", f"{portal}/staff": "main#main",
        "/portal/magazine": "#magazine-portal", "/admin": "main#main h1", "/admin/categories": "#category-form",
        "/admin/brands": "#brand-form", "/admin/stores": "#store-form", "/admin/reports": "#reports-page",
        "/admin/users": "main#main ul.list li",
    }
    for path, ready in staff.items():
        audit.visit(path, ready)
    audit.submit_invalid(f"{portal}/products/new", "product-form", "product form (errors)",
                         title="", price="free", minAge="150", externalUrl="not a link")
    audit.submit_invalid(f"{portal}/profile", "profile-form", "store profile (errors)", name="", website="not a link", lat="north")

    assert not audit.findings, audit.report()


def test_keyboard_only_purchase(sized_browser, server, unique_email, tmp_path):
    staff_email, shopper_email = unique_email("kb-staff"), unique_email("kb-shopper")
    sign_up_api(server, staff_email, "Stina Staff")
    sign_up_api(server, shopper_email, "Sara Shopper")
    _, _, product_id, size_m = shop(server, tmp_path, staff_email)
    page = Page(sized_browser, server.base_url)
    keys = Keyboard(page)

    # Sign in.
    page.open("/signin")
    keys.tab_to("#email")
    keys.type(shopper_email)
    keys.tab_to("#password")
    keys.type(PASSWORD)
    keys.press_on("#signin-form button[type='submit']")
    page.wait_for_path("/")
    assert "Sara Shopper" in page.visible("#greeting").text

    # Search from the home page.
    keys.tab_to("#home-q")
    keys.type("linen wrap dress")
    keys.press_on("#home-search button[type='submit']")
    page.wait_for_path("/search")

    # The skip link comes first and takes the focus to the content; the product is a few Tabs on.
    keys.press(Keys.TAB)
    assert keys.focused(".skip-link")
    keys.assert_focus_ring()
    keys.press(Keys.ENTER)
    page.wait.until(lambda _d: keys.focused("main#main"), "the skip link did not move the focus to the content")
    keys.press_on(f"#search-page a[href='/products/{product_id}']")
    page.wait_for_path(f"/products/{product_id}")

    # Like it (Space on the button).
    keys.press_on("#like-form button", Keys.SPACE)
    page.wait_for_path(f"/products/{product_id}")
    assert page.visible("#like-form button").get_attribute("aria-pressed") == "true"

    # Size M into the cart: typing picks the option in the focused list.
    keys.tab_to("#cart-size")
    keys.assert_focus_ring()
    keys.type("M")
    assert page.field_value("#cart-size") == size_m
    keys.press_on("#add-to-cart")
    page.wait_for_path("/cart")

    # Check out: on past the form to its button, back (Shift+Tab) to the choices, then order.
    keys.tab_to("#place-order")
    keys.choose("#fulfilment-pickup", backwards=True)
    keys.choose("#payment-store")
    keys.press_on("#place-order")
    page.wait.until(lambda d: "/orders/" in d.current_url, "no order page after checkout")
    assert page.visible("#order-status").text == "Placed"
    assert "Linen wrap dress" in page.visible("#order-page").text
