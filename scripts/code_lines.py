"""Lines of code in Python files, without blank lines, comments and docstrings.

.venv/bin/python scripts/code_lines.py examples/nothanks/nothanks/*.py
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path


def docstring_lines(tree: ast.AST) -> set[int]:
    """Line numbers held by the docstrings of the module, classes and functions."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                lines.update(range(body[0].lineno, body[0].end_lineno + 1))  # type: ignore[operator]
    return lines


def code_lines(text: str) -> int:
    """Lines holding a token other than a comment, outside docstrings."""
    skip = docstring_lines(ast.parse(text))
    ignored = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in ignored and token.type != tokenize.ENDMARKER:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines - skip)


def main() -> None:
    total = 0
    for name in sys.argv[1:]:
        count = code_lines(Path(name).read_text(encoding="utf-8"))
        total += count
        print(f"{count:5d}  {name}")
    print(f"{total:5d}  total")


if __name__ == "__main__":
    main()
