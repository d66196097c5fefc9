"""The HTML report fits a 1280-pixel window: wide tables scroll inside their own box and
long unbroken words (strategy specs, paths) wrap, so the page has no horizontal scrollbar.

The markup and style are checked on every machine; the layout itself in headless Chromium
when one is installed (`scripts/html_fits.py`, which `make reports` runs on the reports)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from sanssim.analysis import document
from sanssim.analysis.document import Bullets, Heading, Para, Table

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "html_fits.py"
_spec = importlib.util.spec_from_file_location("html_fits", SCRIPT)
assert _spec is not None and _spec.loader is not None
html_fits = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(html_fits)

LONG = "heuristic:" + ",".join(f"weight{i}=0.{i}" for i in range(40))  # no space to wrap at
BLOCKS = [
    Heading(1, "wide"),
    Para(f"spec {LONG} ends"),
    Bullets([f"- {LONG}"]),
    Table([f"column {i}" for i in range(30)], [[f"{i}.123 [0.1, 0.2]" for i in range(30)]]),
]


def _rules(style: str) -> dict[str, str]:
    """Selector -> declarations, each selector of a group on its own."""
    rules: dict[str, str] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", style):
        for selector in selectors.split(","):
            rules[selector.strip()] = rules.get(selector.strip(), "") + body + ";"
    return rules


def test_tables_scroll_in_their_own_box_and_long_words_wrap(tmp_path: Path) -> None:
    rules = _rules(document.STYLE)
    assert "display:block" in rules["table"] and "overflow-x:auto" in rules["table"]
    assert "max-width:100%" in rules["img"]
    for selector in ("p", "li", "figcaption"):
        assert "overflow-wrap:break-word" in rules[selector], selector
    page = document.to_html(BLOCKS, tmp_path, "wide")
    assert page.count("<table>") == 1 and "<div" not in page  # no wrapper that could widen


@pytest.mark.skipif(html_fits.browser() is None, reason="no Chromium installed")
def test_a_wide_page_fits_1280_pixels_in_a_browser(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(document.to_html(BLOCKS, tmp_path, "wide"))
    scroll, client = html_fits.widths(page, html_fits.browser())
    assert scroll <= client
    unwrapped = document.STYLE.replace("overflow-wrap:break-word", "")
    page.write_text(document.to_html(BLOCKS, tmp_path, "wide").replace(document.STYLE, unwrapped))
    scroll, client = html_fits.widths(page, html_fits.browser())
    assert scroll > client  # the check sees a page that does not fit
