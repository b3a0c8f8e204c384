"""The documentation site in a real browser: ``mkdocs build --strict`` builds it, a local HTTP
server serves it, and headless Chromium (as the HTML report's browser tests drive it) opens
every page: no JavaScript console error, no request outside the site, and the search finds a
page. Skipped without Chromium or MkDocs (``pip install -e '.[docs]'``)."""

from __future__ import annotations

import functools
import subprocess
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.docs.blocks import ROOT


pytestmark = [pytest.mark.browser, pytest.mark.slow,  # builds the site, starts headless Chromium
              pytest.mark.xdist_group("site")]  # one worker builds the site once for both tests



class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's name
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The built site, served on 127.0.0.1: (base URL, folder)."""
    pytest.importorskip("mkdocs", reason="the docs extra: pip install -e '.[docs]'")
    pytest.importorskip("material", reason="the docs extra: pip install -e '.[docs]'")
    folder = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", folder
    server.shutdown()
    server.server_close()


def test_every_page_opens_without_errors(site, browser):
    base, folder = site
    pages = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.html") if p.name != "404.html")
    assert len(pages) >= 30, pages
    assert {"index.html", "reference/cli.html", "reference/python-api.html", "reference/state-api.html",
            "tutorials/rank-your-bot.html"} <= set(pages)
    for page in pages:
        browser.open(f"{base}/{page}")
        assert browser.eval("document.querySelector('article h1') !== null"), f"{page}: no title"
        assert browser.errors() == [], f"{page}: {browser.errors()}"
    outside = [url for url in browser.requests() if not url.startswith((base, "data:", "blob:"))]
    assert outside == []


def test_the_generated_pages_have_their_content(site, browser):
    base, _ = site
    browser.open(f"{base}/reference/cli.html")
    assert browser.eval("[...document.querySelectorAll('h2 code')].some(c => c.textContent === 'arena run')")
    assert browser.eval("document.body.textContent.includes('--sprt')")
    browser.open(f"{base}/reference/state-api.html")
    assert browser.eval("document.body.textContent.includes('InteractionState')")
    browser.open(f"{base}/reference/terminations.html")
    assert browser.eval("document.body.textContent.includes('illegal_move')")


def test_search_finds_a_page(site, browser):
    base, _ = site
    browser.open(f"{base}/index.html")
    browser.eval("const q = document.querySelector('.md-search__input'); q.focus(); q.value = 'pentanomial'; "
                 "q.dispatchEvent(new Event('input', {bubbles: true})); q.dispatchEvent(new KeyboardEvent('keyup'))")
    deadline = time.monotonic() + 60
    found = 0
    while time.monotonic() < deadline and not found:
        found = browser.eval("document.querySelectorAll('.md-search-result__item').length")
        time.sleep(0.2)
    assert found > 0, "the search found nothing for 'pentanomial'"
    assert browser.errors() == []
