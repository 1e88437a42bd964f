"""Web notifications in a real browser (phone and desk).

Nora turns on notifications in her settings: permission is granted through
DevTools, the page registers the service worker at /sw.js, subscribes with the
server's VAPID key and stores the subscription, which the API then lists as her
device. She stops reactions from being pushed and sets quiet hours in
Bucharest; both are kept. Signing out forgets this browser's subscription.

This machine cannot reach a browser push service (Chromium's is Google's), so a
stand-in answers `PushManager.subscribe` when the real one fails: a
subscription with a fresh P-256 key and auth secret made by the page's own
WebCrypto, just as a push service's would be. Everything else is the browser's.
"""

from __future__ import annotations

import uuid

from selenium.webdriver.support.ui import WebDriverWait

from test_portal_flow import api
from test_social_flow import sign_up
from web_page import PASSWORD, Page

PUSH_SERVICE_STAND_IN = r"""
(function () {
  if (!window.PushManager) return;
  var realSubscribe = PushManager.prototype.subscribe;
  var realGet = PushManager.prototype.getSubscription;
  function b64url(buffer) {
    return btoa(String.fromCharCode.apply(null, new Uint8Array(buffer))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  function standIn(json) {
    return { endpoint: json.endpoint, toJSON: function () { return json; },
             unsubscribe: function () { localStorage.removeItem('standInPush'); return Promise.resolve(true); } };
  }
  PushManager.prototype.getSubscription = function () {
    var saved = localStorage.getItem('standInPush');
    return saved ? Promise.resolve(standIn(JSON.parse(saved))) : realGet.call(this);
  };
  PushManager.prototype.subscribe = function (options) {
    var manager = this;
    var timeout = new Promise(function (_, reject) { setTimeout(function () { reject(new Error('no push service')); }, 5000); });
    return Promise.race([realSubscribe.call(manager, options), timeout]).catch(function () {
      window.__pushStandInUsed = true;
      return crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']).then(function (pair) {
        return crypto.subtle.exportKey('raw', pair.publicKey);
      }).then(function (raw) {
        var json = { endpoint: 'https://push.example.test/send/' + crypto.randomUUID(), expirationTime: null,
                     keys: { p256dh: b64url(raw), auth: b64url(crypto.getRandomValues(new Uint8Array(16))) } };
        localStorage.setItem('standInPush', JSON.stringify(json));
        return standIn(json);
      });
    });
  };
})();
"""


def devices(server, token: str) -> list[dict]:
    answer = api(server, "GET", "/me/devices", token)
    assert answer.status_code == 200, answer.text
    return answer.json()["items"]


def test_turn_on_web_notifications_and_preferences(browser, server, unique_email, viewport):
    page = Page(browser, server.base_url)
    address = unique_email(f"nora-{viewport}")
    name = f"Nora P{uuid.uuid4().hex[:6]}"
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PUSH_SERVICE_STAND_IN})
    browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.base_url, "permissions": ["notifications"]})
    sign_up(page, name, address)
    token = api(server, "POST", "/auth/login", json={"email": address, "password": PASSWORD}).json()["accessToken"]
    assert devices(server, token) == []

    # 1. Turn on notifications for this browser.
    page.open("/settings")
    block = page.visible("#web-push")
    assert "off" in page.visible("#web-push-status").text
    page.visible("#web-push-enable").click()
    WebDriverWait(browser, 20).until(lambda _: block.get_attribute("data-state") == "on", message=page.visible("#web-push-status").text)
    assert "on" in page.visible("#web-push-status").text
    assert page.visible("#web-push-disable").is_displayed()

    # The service worker is registered for the whole site.
    script = browser.execute_async_script(
        "var done = arguments[0]; navigator.serviceWorker.getRegistration('/').then(function (r) {"
        " done(r ? { scope: r.scope, script: (r.active || r.waiting || r.installing).scriptURL } : null); });")
    assert script == {"scope": server.base_url + "/", "script": server.base_url + "/sw.js"}

    # The subscription is stored: the API lists it as her device.
    subscription = browser.execute_async_script(
        "var done = arguments[0]; navigator.serviceWorker.ready.then(function (r) { return r.pushManager.getSubscription(); })"
        ".then(function (s) { done(s && s.toJSON()); });")
    stored = devices(server, token)
    assert [(d["platform"], d["token"]) for d in stored] == [("webpush", subscription["endpoint"])]

    # 2. No reaction pushes; quiet hours 22:00–07:00 in Bucharest. Kept after a reload.
    form = page.form("notifications-form")
    reaction_push = form.find_element("css selector", 'input[name="push-reaction"]')
    assert reaction_push.is_selected()
    reaction_push.click()
    quiet = form.find_element("css selector", "#quietHours")
    if not quiet.is_selected():
        quiet.click()
    browser.execute_script(
        "arguments[0].value = '22:00'; arguments[1].value = '07:00';",
        form.find_element("css selector", "#quietStart"), form.find_element("css selector", "#quietEnd"))
    page.select(form, "quietTimeZone", "Europe/Bucharest")
    page.submit(form)
    page.wait_for_path("/settings")
    assert "Notification settings saved" in page.flash()
    form = page.form("notifications-form")
    assert not form.find_element("css selector", 'input[name="push-reaction"]').is_selected()
    assert form.find_element("css selector", 'input[name="push-comment"]').is_selected()
    assert form.find_element("css selector", "#quietHours").is_selected()
    preferences = api(server, "GET", "/me/notification-preferences", token).json()
    reaction = next(k for k in preferences["kinds"] if k["kind"] == "reaction")
    assert reaction["push"] is False
    assert preferences["quietHours"] == {"start": "22:00", "end": "07:00", "timeZone": "Europe/Bucharest"}

    # 3. Signing out forgets this browser's subscription (the API session stays signed in).
    page.sign_out()
    assert devices(server, token) == []
