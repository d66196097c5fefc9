"""Check that report HTML files fit a 1280-pixel window: no page-wide horizontal scrollbar
(wide tables scroll inside their own box). Opens each file in headless Chromium and compares
the page's scroll width with the window's.

    .venv/bin/python scripts/html_fits.py reports/*/report.html

Exit 0 when every page fits, 1 naming those that do not, 2 when no Chromium is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

WIDTH = 1280
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
# Appended to a copy of the page: once everything is laid out, the page's scroll width and
# the window's client width become the title, which --dump-dom prints.
PROBE = (
    '<script>window.addEventListener("load", function () {'
    'var d = document.documentElement; document.title = "fits " + d.scrollWidth + " "'
    " + d.clientWidth;});</script></body>"
)


def browser() -> str | None:
    return next((b for b in map(shutil.which, BROWSERS) if b), None)


def widths(page: Path, chromium: str) -> tuple[int, int]:
    """The page's scroll width and the window's client width, in CSS pixels."""
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.html"
        probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE, 1))
        dom = subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                f"--window-size={WIDTH},2400",
                "--virtual-time-budget=5000",
                "--dump-dom",
                probe.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        ).stdout
    found = re.search(r"<title>fits (\d+) (\d+)</title>", dom)
    if found is None:
        raise RuntimeError(f"{page}: the browser did not lay the page out")
    return int(found[1]), int(found[2])


def main(pages: list[str]) -> int:
    chromium = browser()
    if chromium is None:
        print("html_fits: no Chromium installed (apt-get install chromium)", file=sys.stderr)
        return 2
    wide = []
    for page in map(Path, pages):
        scroll, client = widths(page, chromium)
        if scroll > client:
            wide.append(f"{page}: {scroll} px wide in a {client} px window")
    for line in wide:
        print(line, file=sys.stderr)
    return 1 if wide else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
