#!/usr/bin/env python3
"""Browser tests of the web page served by `sentiment serve`, in headless Chromium.

Starts a fake X API that always fails (503), imports the sample archive
Examples/archive/sunnydays into a temporary database, starts the built
`sentiment serve --profile dev` on a free loopback port against that fake, then
drives Debian's Chromium through Selenium + chromedriver:

  search for the sample user, open their tweets (stale: the upstream fails),
  tap a happy, a neutral and a sad tweet (from the sample user, or from the
  fixture user `moodboard` when the model gives the sample no tweet of a mood) and check the full screen's computed
  background colour and emoji, the 80-character font rule, the keyboard, the
  Try-it box, reduced motion, a phone-width screen, the server-error state
  (upstream failing, nothing stored), a malformed address and the
  connection-failure state (server stopped).

Screenshots go to test-artifacts/browser/ (and, with --docs-screenshots, the
README's to Docs/screenshots/). The last line is `N passed, N failed`; the exit
status is 1 when a test failed, 2 when the set-up failed.

Usage:
  python3 Tests/Browser/browser_tests.py [--sentiment .build/debug/sentiment] [--model DIR]
                                         [--docs-screenshots] [--headed]
"""

import argparse
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
DOCS_SCREENSHOTS = ROOT / "Docs" / "screenshots"
ARCHIVE = ROOT / "Examples" / "archive" / "sunnydays"
USER = "sunnydays"
# Clearly happy, neutral and sad tweets, for when the model gives the sample archive no tweet of some mood.
MOODBOARD = ROOT / "Tests" / "Browser" / "fixtures" / "moodboard.jsonl"
MOODBOARD_USER = "moodboard"
# 45 tweets: more than two pages, for the paging test.
LONG_TIMELINE = ROOT / "Tests" / "Browser" / "fixtures" / "longtimeline.jsonl"
LONG_TIMELINE_USER = "longtimeline"
LONG_TIMELINE_COUNT = 45
# A 50-character handle, a display name of 50 letters without a space, HTML markup in a tweet.
LONG_NAMES = ROOT / "Tests" / "Browser" / "fixtures" / "longnames.jsonl"
LONG_NAMES_USER = "longnames_" + "x" * 40
# A display name that starts with an emoji (🌻, two UTF-16 code units).
EMOJI_NAME = ROOT / "Tests" / "Browser" / "fixtures" / "emojiname.jsonl"
EMOJI_NAME_USER = "emojiname"

THEME_COLORS = {  # Theme.swift: #FFD60A, #8E8E93, #0A84FF
    "happy": "rgb(255, 214, 10)",
    "neutral": "rgb(142, 142, 147)",
    "sad": "rgb(10, 132, 255)",
}
THEME_EMOJI = {"happy": "😃", "neutral": "😐", "sad": "😔"}
PHONE = (390, 844)


# MARK: - Fixtures


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class FailingXAPI(http.server.BaseHTTPRequestHandler):
    """A stand-in X API v2 that is down: every request gets a 503 problem, but
    the lookup of EMOJI_NAME_USER, whom it does not know (a 404, as X answers
    for a deleted account)."""

    def do_GET(self):  # noqa: N802 (http.server's naming)
        status = 503
        body = json.dumps({"title": "Service Unavailable", "detail": "the fake X API is down",
                           "type": "about:blank", "status": 503}).encode()
        if self.path.split("?")[0] == f"/2/users/by/username/{EMOJI_NAME_USER}":
            status = 404
            body = json.dumps({"errors": [{"value": EMOJI_NAME_USER, "title": "Not Found Error",
                                           "detail": f"Could not find user with username: [{EMOJI_NAME_USER}].",
                                           "type": "https://api.twitter.com/2/problems/resource-not-found"}]}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start_failing_upstream():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FailingXAPI)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def wait_for_health(base_url, process, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"sentiment serve exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(base_url + "/healthz", timeout=2) as response:
                if response.status == 200:
                    return json.load(response)
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("sentiment serve did not answer /healthz in time")


def chromium_driver(headed):
    options = webdriver.ChromeOptions()
    for candidate in ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"):
        if os.path.exists(candidate):
            options.binary_location = candidate
            break
    if not headed:
        options.add_argument("--headless=new")
    for argument in ("--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=en-US",
                     "--force-device-scale-factor=1", "--hide-scrollbars", "--no-first-run",
                     "--disable-extensions", "--disable-background-networking"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={PHONE[0]},{PHONE[1]}")
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(30)
    # A phone's viewport (headless windows are at least 500 px wide).
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True})
    return driver


# MARK: - The tests


class Suite:
    def __init__(self, driver, base_url, server, docs_screenshots):
        self.driver = driver
        self.base_url = base_url
        self.server = server
        self.docs = docs_screenshots
        self.passed = []
        self.failed = []

    # Helpers

    def wait(self, condition, timeout=15):
        return WebDriverWait(self.driver, timeout).until(condition)

    def visible(self, css, timeout=15):
        return self.wait(EC.visibility_of_element_located((By.CSS_SELECTOR, css)), timeout)

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def style(self, element, prop):
        return self.driver.execute_script("return getComputedStyle(arguments[0]).getPropertyValue(arguments[1])",
                                          element, prop)

    def screenshot(self, name, docs_name=None):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.driver.save_screenshot(str(path))
        if self.docs and docs_name:
            DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, DOCS_SCREENSHOTS / docs_name)

    def open(self, path):
        self.driver.get(self.base_url + path)

    def run(self, name, test):
        try:
            test()
            self.passed.append(name)
            print(f"PASS  {name}", flush=True)
        except Exception as error:  # noqa: BLE001 — every failure is reported, then the next test runs
            self.failed.append(name)
            print(f"FAIL  {name}: {type(error).__name__}: {error}", flush=True)
            traceback.print_exc(limit=3)
            try:
                self.screenshot(f"FAILED-{name}")
            except Exception:  # noqa: BLE001
                pass

    def open_tweets(self, user=USER):
        self.open(f"/users/{user}")
        self.visible(".tweet")

    def tweet_with_theme(self, theme):
        """The first tweet of a theme: the sample user's, else the fixture user's (the page is left on its user)."""
        seen = {}
        for user in (USER, MOODBOARD_USER):
            self.open_tweets(user)
            tweets = self.all(f'#tweet-list .tweet[data-theme="{theme}"]')
            if tweets:
                return tweets[0]
            seen[user] = [t.get_attribute("data-theme") for t in self.all(".tweet")]
        raise AssertionError(f"no {theme} tweet: {seen}")

    def settle(self, element):
        """Waits until the element's animations have finished."""
        self.wait(lambda d: d.execute_script(
            "return arguments[0].getAnimations().every(a => a.playState === 'finished')", element))

    # Tests

    def test_search_finds_the_sample_user(self):
        self.open("/")
        self.visible("#search-input").send_keys("sun")
        link = self.visible(f'#user-list a[data-username="{USER}"]')
        header = self.find("#results-title").text
        assert "sun" in header, f"the list header should name the last term searched, got {header!r}"
        assert "@sunnydays" in link.text
        self.screenshot("search", "search.png")

    def test_search_shows_skeleton_then_empty_state(self):
        self.open("/")
        self.driver.execute_script(
            "window.__skeletonSeen = false;"
            "new MutationObserver(() => { if (!document.querySelector('#skeleton-list').hidden) window.__skeletonSeen = true; })"
            ".observe(document.querySelector('#skeleton-list'), {attributes: true});")
        self.visible("#search-input").send_keys("zzzz")
        self.wait(lambda d: "zzzz" in self.find("#search-empty").text)
        assert self.driver.execute_script("return window.__skeletonSeen"), "the skeleton was never shown while loading"
        assert "zzzz" in self.find("#results-title").text

    def test_open_tweets_from_search(self):
        self.open("/")
        self.visible("#search-input").send_keys("sunny")
        self.visible(f'#user-list a[data-username="{USER}"]').click()
        self.wait(EC.url_to_be(f"{self.base_url}/users/{USER}"))
        self.visible(".tweet")
        title = self.find("#tweets-title").text
        assert title == f"@{USER}", title
        # The fake X API is down: the stored tweets are shown, with the stale banner.
        banner = self.visible("#stale-banner")
        assert "out of date" in banner.text, banner.text
        for tweet in self.all(".tweet")[:3]:
            assert tweet.find_element(By.CSS_SELECTOR, ".tweet-emoji").text, "each tweet shows an emoji"
            assert tweet.find_element(By.CSS_SELECTOR, ".tweet-mood").text, "and a text label of its mood"
            assert tweet.find_element(By.CSS_SELECTOR, "time").text, "and a date"
            bar = tweet.find_element(By.CSS_SELECTOR, ".tweet-bar")
            assert bar.size["width"] >= 4, "a coloured bar on the left"
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.screenshot("tweets", "tweets.png")

    def test_tweet_bars_have_theme_colours(self):
        for theme, color in THEME_COLORS.items():
            bar = self.tweet_with_theme(theme).find_element(By.CSS_SELECTOR, ".tweet-bar")
            assert self.style(bar, "background-color") == color, (theme, self.style(bar, "background-color"))

    def check_theme_screen(self, theme, close_with):
        tweet = self.tweet_with_theme(theme)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", tweet)
        tweet.click()
        screen = self.visible(f'#theme-screen[data-theme-screen="{theme}"]')
        self.settle(screen)
        background = self.style(screen, "background-color")
        assert background == THEME_COLORS[theme], f"{theme}: background {background}"
        emoji = screen.find_element(By.CSS_SELECTOR, ".theme-emoji").text
        assert emoji == THEME_EMOJI[theme], f"{theme}: emoji {emoji!r}"
        text = screen.find_element(By.CSS_SELECTOR, ".theme-text").text
        assert text == tweet.find_element(By.CSS_SELECTOR, ".tweet-text").text
        label = screen.find_element(By.CSS_SELECTOR, ".theme-label").text
        assert label.lower() == theme, f"the mood is also written: {label!r}"
        rect = self.driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.width, r.height, innerWidth, innerHeight]", screen)
        assert rect[0] >= rect[2] and rect[1] >= rect[3], f"the theme covers the whole screen: {rect}"
        if theme == "happy":
            self.screenshot("theme-happy", "theme-happy.png")
        else:
            self.screenshot(f"theme-{theme}")
        if close_with == "tap":
            screen.click()
        else:
            self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.wait(EC.invisibility_of_element_located((By.CSS_SELECTOR, "#theme-screen")))

    def test_tap_happy(self):
        self.check_theme_screen("happy", close_with="escape")

    def test_tap_neutral(self):
        self.check_theme_screen("neutral", close_with="tap")

    def test_tap_sad(self):
        self.check_theme_screen("sad", close_with="escape")

    def test_short_tweets_have_a_larger_font(self):
        self.open_tweets()
        rows = self.driver.execute_script("""
            return [...document.querySelectorAll('.tweet-text')].map(node => ({
              length: Array.from(node.textContent).length,
              short: node.classList.contains('short'),
              size: parseFloat(getComputedStyle(node).fontSize)}))""")
        shorts = [row for row in rows if row["length"] <= 80]
        longs = [row for row in rows if row["length"] > 80]
        assert shorts and longs, f"the sample needs tweets on both sides of 80 characters: {rows}"
        assert all(row["short"] for row in shorts) and not any(row["short"] for row in longs), rows
        assert min(row["size"] for row in shorts) > max(row["size"] for row in longs), rows

    def test_keyboard_opens_and_closes_the_theme(self):
        self.open_tweets()
        body = self.find("body")
        body.send_keys(Keys.TAB)  # the skip link
        for _ in range(12):
            active = self.driver.switch_to.active_element
            if "tweet" in (active.get_attribute("class") or "").split():
                break
            active.send_keys(Keys.TAB)
        active = self.driver.switch_to.active_element
        assert "tweet" in (active.get_attribute("class") or "").split(), "Tab reaches the tweets"
        theme = active.get_attribute("data-theme") or "unsupported"
        active.send_keys(Keys.ENTER)
        self.visible(f'#theme-screen[data-theme-screen="{theme}"]')
        self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.wait(EC.invisibility_of_element_located((By.CSS_SELECTOR, "#theme-screen")))
        focused = self.driver.switch_to.active_element
        assert focused.get_attribute("data-id") == active.get_attribute("data-id"), "focus returns to the tweet"
        # Space opens it too, and Enter closes it without opening it again.
        focused.send_keys(Keys.SPACE)
        screen = self.visible(f'#theme-screen[data-theme-screen="{theme}"]')
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait(EC.invisibility_of_element_located((By.CSS_SELECTOR, "#theme-screen")))
        time.sleep(0.3)
        assert not screen.is_displayed(), "Enter on the theme screen closed it for good"
        focused = self.driver.switch_to.active_element
        assert focused.get_attribute("data-id") == active.get_attribute("data-id"), "focus returns to the tweet"

    def test_tweets_are_a_list_whose_items_each_hold_a_named_button(self):
        self.open_tweets()
        assert self.find("#tweet-list").aria_role == "list"
        items = self.all("#tweet-list > li")
        assert len(items) == len(self.all(".tweet")) > 0, "one list item a tweet"
        for item in items:
            # A role on the item (role="button") would hide it from screen readers as an item of the list.
            assert item.get_attribute("role") is None, f"the item has role {item.get_attribute('role')!r}"
            assert item.aria_role == "listitem", item.aria_role
            buttons = item.find_elements(By.CSS_SELECTOR, "button")
            assert len(buttons) == 1, f"one button an item, not {len(buttons)}"
            button = buttons[0]
            assert button.aria_role == "button", button.aria_role
            text = button.find_element(By.CSS_SELECTOR, ".tweet-text").text
            mood = button.find_element(By.CSS_SELECTOR, ".tweet-mood").text
            name = " ".join(button.accessible_name.split())
            assert name.startswith(f"{mood}: ") and " ".join(text.split()) in name, f"named by its mood and text: {name!r}"

    def test_pages_load_as_you_scroll_to_the_end(self):
        self.open_tweets(LONG_TIMELINE_USER)
        first = len(self.all(".tweet"))
        assert 0 < first < LONG_TIMELINE_COUNT, f"the first page is a page, not everything: {first}"
        seen = first
        for _ in range(10):
            if len(self.all(".tweet")) >= LONG_TIMELINE_COUNT:
                break
            self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            self.wait(lambda d: len(self.all(".tweet")) > seen)
            seen = len(self.all(".tweet"))
        ids = [t.get_attribute("data-id") for t in self.all(".tweet")]
        assert len(ids) == LONG_TIMELINE_COUNT, f"every tweet once: {len(ids)}"
        assert len(set(ids)) == len(ids), "no tweet twice"
        assert ids == sorted(ids, key=int, reverse=True), "newest first across pages"
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.wait(lambda d: self.find("#list-end").is_displayed())

    def test_refresh_reloads(self):
        self.open_tweets()
        count = len(self.all(".tweet"))
        fetches = "return performance.getEntriesByType('resource').filter(e => e.name.includes('/tweets')).length"
        before = self.driver.execute_script(fetches)
        self.find("#refresh").click()
        # A new request for the tweets went out, and the list came back whole.
        self.wait(lambda d: d.execute_script(fetches) > before)
        self.wait(lambda d: len(self.all(".tweet")) == count and self.find("#tweet-skeleton").get_attribute("hidden") is not None)

    def test_a_refresh_that_fails_keeps_the_tweets_shown(self):
        self.open_tweets()
        count = len(self.all(".tweet"))
        # The server cannot be reached for the refresh.
        self.driver.execute_script("window.fetch = () => Promise.reject(new TypeError('Failed to fetch'))")
        self.find("#refresh").click()
        error = self.visible("#tweets-error")
        assert "reach the server" in error.text, error.text
        assert len(self.all(".tweet")) == count, "the tweets shown before the refresh are still shown"
        self.open("/")  # reloads the page, and with it fetch

    def test_try_it_updates_as_you_type(self):
        self.open("/")
        box = self.visible("#try-input")
        box.send_keys("I love this, what a wonderful day!")
        mood = self.wait(lambda d: (m := self.find("#try-mood")).get_attribute("data-mood") not in ("empty", None) and m)
        state = mood.get_attribute("data-mood")
        assert state in ("happy", "neutral", "sad", "unsupported"), state
        assert self.find("#try-mood .try-label").text.strip(), "a text label carries the mood"
        box.clear()
        box.send_keys(" ")
        self.wait(lambda d: self.find("#try-mood").get_attribute("data-mood") == "empty")

    def test_try_it_shows_invisible_text_as_empty_not_as_an_error(self):
        self.open("/")
        box = self.visible("#try-input")
        # Only default-ignorable characters: the server's BlankText calls it empty, String.trim does not.
        box.send_keys("\u200b\u2060")
        classified = "return performance.getEntriesByType('resource').some(e => e.name.endsWith('/v1/classify'))"
        self.wait(lambda d: d.execute_script(classified) and self.find("#try-mood").get_attribute("aria-busy") is None)
        mood = self.find("#try-mood")
        assert mood.get_attribute("data-mood") == "empty", f"{mood.get_attribute('data-mood')}: {mood.text!r}"
        assert self.find("#try-mood .try-label").text == "Type something", mood.text

    def test_recent_searches_without_duplicates(self):
        for name in (USER, USER.upper()):
            self.open(f"/users/{name}")
            self.visible(".tweet")
        self.open("/")
        self.visible("#recent-list a, #user-list a")
        header = self.find("#results-title").text
        assert header.lower() == f"last searched: @{USER}", header
        names = [a.get_attribute("data-username").lower() for a in self.all("#recent-list a")]
        assert len(names) == len(set(names)), f"no duplicates: {names}"

    def test_reduced_motion(self):
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                    {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        try:
            self.tweet_with_theme("happy").click()
            screen = self.visible("#theme-screen")
            duration = self.style(screen, "animation-duration")
            assert duration in ("0s", "0ms"), duration
            transition = self.style(self.find(".tweet"), "transition-duration")
            assert all(part.strip() in ("0s", "0ms") for part in transition.split(",")), transition
            screen.click()
        finally:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def test_fits_a_phone_width(self):
        for path in ("/", f"/users/{USER}"):
            self.open(path)
            self.visible(".tweet" if "users" in path else "#search-input")
            widths = self.driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
            assert widths[0] <= widths[1], f"{path} scrolls sideways: {widths}"

    def test_long_names_fit_a_phone_width(self):
        self.open("/")
        self.visible("#search-input").send_keys("longnames")
        self.visible(f'#user-list a[data-username="{LONG_NAMES_USER}"]')
        widths = self.driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert widths[0] <= PHONE[0], f"the search results scroll sideways: {widths}"
        self.open_tweets(LONG_NAMES_USER)
        self.wait(lambda d: self.find("#tweets-subtitle").text == "W" * 50)
        widths = self.driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert widths[0] <= PHONE[0], f"the tweets scroll sideways: {widths}"

    def test_an_avatar_shows_the_whole_first_character_of_an_emoji_name(self):
        self.open("/")
        self.visible("#search-input").send_keys(EMOJI_NAME_USER)
        self.visible(f'#user-list a[data-username="{EMOJI_NAME_USER}"]')
        # Code points, not the text: half a surrogate pair cannot even be handed back to Python.
        initial = self.driver.execute_script(
            "return [...arguments[0].textContent].map(c => c.codePointAt(0))",
            self.find(f'#user-list a[data-username="{EMOJI_NAME_USER}"] .avatar'))
        assert initial == [0x1F33B], f"the avatar shows 🌻, not half of it: {[hex(c) for c in initial]}"

    def test_a_stored_user_x_does_not_know_shows_the_stored_tweets_and_says_why(self):
        self.open_tweets(EMOJI_NAME_USER)
        banner = self.visible("#stale-banner")
        assert "does not know this account" in banner.text, banner.text
        assert self.find("#tweets-error").get_attribute("hidden") is not None, "no error in place of the tweets"

    def test_tweet_markup_is_shown_as_text(self):
        self.open_tweets(LONG_NAMES_USER)
        text = self.find('.tweet[data-id="1786100000000000001"] .tweet-text').text
        assert text.startswith("<b>not bold</b> <img src=x"), text
        assert not self.all(".tweet-text b, .tweet-text img"), "markup in a tweet became elements"
        assert self.driver.execute_script("return document.body.dataset.injected") is None

    def test_a_search_answer_that_is_not_json_says_so_clearly(self):
        self.open("/")
        box = self.visible("#search-input")
        # A proxy's HTML page with a 200: the page's fetch answers it for /v1/users.
        self.driver.execute_script("""
            const real = window.fetch;
            window.fetch = (url, options) => String(url).startsWith("/v1/users?")
              ? Promise.resolve(new Response("<html>proxy</html>", {status: 200, headers: {"Content-Type": "text/html"}}))
              : real(url, options);""")
        box.send_keys("sun")
        error = self.visible("#search-error")
        assert "undefined" not in error.text, error.text
        assert "answer could not be read" in error.text, error.text

    def test_the_search_box_takes_no_more_than_the_server_accepts(self):
        self.open("/")
        box = self.visible("#search-input")
        box.send_keys("a" * 120)
        self.wait(lambda d: self.find("#search-empty").is_displayed() or self.find("#search-error").is_displayed())
        assert not self.find("#search-error").is_displayed(), self.find("#search-error").text
        value = box.get_attribute("value")
        assert len(value) == 100, f"the box keeps 100 characters, not {len(value)}"
        # A value set another way is not sent: the page says why.
        self.driver.execute_script(
            "arguments[0].value = '🌻'.repeat(101); arguments[0].dispatchEvent(new Event('input'))", box)
        self.wait(lambda d: "at most 100 characters" in self.find("#search-empty").text)
        assert not self.find("#search-error").is_displayed(), self.find("#search-error").text

    def test_the_empty_state_offers_enter_only_for_a_valid_username(self):
        self.open("/")
        box = self.visible("#search-input")
        for term, valid in (("a b", False), ("zz_nobody_9", True), ("@zz_nobody_9", True), ("@@zz", False),
                            ("z" * 51, False), ("zé", False),
                            ("zz_nobody_9\u200b", True)):  # a zero-width space the server trims, pasted with a name
            box.clear()
            # Typed as a paste gives it: ChromeDriver's keys leave out a zero-width space.
            self.driver.execute_script(
                "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", box, term)
            assert box.get_attribute("value") == term, (term, box.get_attribute("value"))
            cleaned = term.removeprefix("@")
            self.wait(lambda d: f"“{cleaned}”" in d.execute_script("return arguments[0].textContent", self.find("#search-empty")))
            text = self.driver.execute_script("return arguments[0].textContent", self.find("#search-empty"))
            if valid:
                assert f"Press Enter to look @{cleaned} up." in text, (term, text)
            else:
                assert "not a valid username" in text and "Press Enter" not in text, (term, text)

    def test_enter_on_a_term_that_is_not_a_username_stays_on_the_search(self):
        self.open("/")
        box = self.visible("#search-input")
        box.send_keys("a b")
        box.send_keys(Keys.ENTER)
        self.wait(lambda d: "not a valid username" in self.find("#search-empty").text)
        path = self.driver.execute_script("return location.pathname")
        assert path == "/", f"Enter on an invalid username opened {path}"
        # A valid one still opens its page.
        box.clear()
        box.send_keys("zz_nobody_9")
        box.send_keys(Keys.ENTER)
        self.wait(lambda d: d.execute_script("return location.pathname") == "/users/zz_nobody_9")

    def test_small_text_on_every_theme_screen_has_at_least_4_5_to_1_contrast(self):
        ratio = """
            const channel = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
            const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
            const rgba = (text) => text.match(/[\\d.]+/g).map(Number);
            const [node, screen] = arguments;
            const background = rgba(getComputedStyle(screen).backgroundColor).slice(0, 3);
            let [r, g, b, a = 1] = rgba(getComputedStyle(node).color);
            for (let n = node; n && n !== screen.parentNode; n = n.parentNode) a *= Number(getComputedStyle(n).opacity);
            const ink = [r, g, b].map((c, i) => a * c + (1 - a) * background[i]);
            const [hi, lo] = [luminance(ink), luminance(background)].sort((x, y) => y - x);
            return (hi + 0.05) / (lo + 0.05);"""
        for theme in ("happy", "neutral", "sad"):
            self.tweet_with_theme(theme).click()
            screen = self.visible(f'#theme-screen[data-theme-screen="{theme}"]')
            self.settle(screen)
            for css in (".theme-date", ".theme-hint", ".theme-label", ".theme-text"):
                contrast = self.driver.execute_script(ratio, screen.find_element(By.CSS_SELECTOR, css), screen)
                assert contrast >= 4.5, f"{theme} {css}: {contrast:.2f}:1"
            screen.click()
            self.wait(EC.invisibility_of_element_located((By.CSS_SELECTOR, "#theme-screen")))

    def test_server_error_state(self):
        # Nothing stored for this user and the upstream fails: the server answers 502.
        self.open("/users/nobody_home")
        error = self.visible("#tweets-error")
        assert "server had a problem (502)" in error.text, error.text
        retry = error.find_element(By.CSS_SELECTOR, ".retry")
        assert retry.is_displayed()
        self.screenshot("tweets-server-error")
        retry.click()
        self.visible("#tweets-error")

    def test_malformed_address_shows_an_error(self):
        # "%E0%A4%A" is not a valid percent-encoding (decodeURIComponent throws on it): the page
        # still opens the tweets scene, as typed, and the server's answer says what is wrong.
        self.open("/users/%E0%A4%A")
        error = self.visible("#tweets-error", timeout=5)
        assert "not a username" in error.text, error.text
        title = self.find("#tweets-title").text
        assert title == "@%E0%A4%A", title
        # Asking again would be answered the same 400: no Retry to press.
        assert not error.find_element(By.CSS_SELECTOR, ".retry").is_displayed(), "a Retry that can never succeed"

    def test_connection_failure_state(self):
        # Last: stops the server.
        self.open("/")
        self.visible("#search-input")
        self.server.terminate()
        self.server.wait(timeout=20)
        self.find("#search-input").send_keys("sun")
        error = self.visible("#search-error")
        assert "can't reach the server" in error.text.lower(), error.text
        assert error.find_element(By.CSS_SELECTOR, ".retry").is_displayed()
        self.screenshot("search-connection-failure")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sentiment", default=str(ROOT / ".build" / "debug" / "sentiment"), help="the built executable")
    parser.add_argument("--model", help="a model directory (default: $SENTIMENT_MODEL, then Models/default)")
    parser.add_argument("--docs-screenshots", action="store_true", help="also write Docs/screenshots/*.png")
    parser.add_argument("--headed", action="store_true", help="show the browser")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="sentiment-browser-"))
    database = workdir / "tweets.sqlite"
    environment = dict(os.environ, X_BEARER_TOKEN="browser-test-token", NO_COLOR="1")
    environment.pop("SENTIMENT_API_KEY", None)
    model = ["--model", args.model] if args.model else []
    upstream, upstream_url = start_failing_upstream()
    server = driver = None
    suite = None
    try:
        subprocess.run([args.sentiment, "import", str(ARCHIVE), "--user", USER, "--db", str(database), *model],
                       check=True, env=environment, cwd=ROOT, stdout=subprocess.DEVNULL)
        subprocess.run([args.sentiment, "import", str(MOODBOARD), "--db", str(database), *model],
                       check=True, env=environment, cwd=ROOT, stdout=subprocess.DEVNULL)
        subprocess.run([args.sentiment, "import", str(LONG_TIMELINE), "--db", str(database), *model],
                       check=True, env=environment, cwd=ROOT, stdout=subprocess.DEVNULL)
        subprocess.run([args.sentiment, "import", str(LONG_NAMES), "--db", str(database), *model],
                       check=True, env=environment, cwd=ROOT, stdout=subprocess.DEVNULL)
        subprocess.run([args.sentiment, "import", str(EMOJI_NAME), "--db", str(database), *model],
                       check=True, env=environment, cwd=ROOT, stdout=subprocess.DEVNULL)
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        log = open(ARTIFACTS / "server.log", "w")
        server = subprocess.Popen(
            [args.sentiment, "serve", "--profile", "dev", "--host", "127.0.0.1", "--port", str(port),
             "--db", str(database), "--api-url", upstream_url, "--log-level", "info", *model],
            env=environment, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        health = wait_for_health(base_url, server)
        print(f"server {base_url} model {health['model']}", flush=True)
        driver = chromium_driver(args.headed)
        suite = Suite(driver, base_url, server, args.docs_screenshots)
        tests = [name for name in dir(Suite) if name.startswith("test_")]
        # Definition order, the connection failure (which stops the server) last.
        tests.sort(key=lambda name: (name == "test_connection_failure_state", Suite.__dict__[name].__code__.co_firstlineno))
        for name in tests:
            suite.run(name.removeprefix("test_"), getattr(suite, name))
    except Exception as error:  # noqa: BLE001
        print(f"set-up failed: {error}", file=sys.stderr)
        traceback.print_exc()
        print("0 passed, 1 failed")
        return 2
    finally:
        if driver:
            driver.quit()
        if server and server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        upstream.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"screenshots: {ARTIFACTS.relative_to(ROOT)}/")
    print(f"{len(suite.passed)} passed, {len(suite.failed)} failed")
    return 1 if suite.failed else 0


if __name__ == "__main__":
    sys.exit(main())
