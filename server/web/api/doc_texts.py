"""The API operations' texts in the reader's language.

An operation's summary and description come from its view's docstring
(flask-smorest reads them into the OpenAPI document), so the catalogs learn
them from the docstrings too: ``extract`` is a Babel extractor (babel.cfg)
that reads a module as the python extractor does and adds the docstring of
every view marked ``@documented``, as the one text the docs page shows."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from babel.messages.extract import extract_python
from flask_smorest.utils import load_info_from_docstring
from markupsafe import Markup, escape

LITERAL = re.compile(r"``([^`]+)``")


def operation_text(summary: str, description: str) -> str:
    """Summary and description as the docs page shows them: one text, the
    docstring's line breaks and indents as single spaces."""
    return " ".join(f"{summary} {description}".split())


def literals_as_code(text: str) -> Markup:
    """A docstring's inline literals (reStructuredText's double backticks)
    as ``<code>``, everything else escaped: the docs page shows the name,
    not its backticks."""
    return Markup(LITERAL.sub(r"<code>\1</code>", str(escape(text))))


def docstring_text(docstring: str) -> str:
    info = load_info_from_docstring(docstring)
    return operation_text(info.get("summary", ""), info.get("description", ""))


def _documented(node: ast.AST) -> bool:
    return isinstance(node, ast.FunctionDef) and any(
        isinstance(d, ast.Name) and d.id == "documented" for d in node.decorator_list
    )


def extract(fileobj, keywords, comment_tags, options) -> Iterator[tuple]:
    """Babel extractor: the python extractor's messages, then each
    documented view's text."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    fileobj.seek(0)
    tree = ast.parse(fileobj.read().decode(options.get("encoding", "utf-8")))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and _documented(node):
            docstring = ast.get_docstring(node, clean=False)
            if docstring:
                yield node.lineno, None, docstring_text(docstring), []
