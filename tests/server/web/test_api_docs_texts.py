"""The API's docs page speaks the reader's language: each operation's text
(its view's docstring, which flask-smorest puts in the OpenAPI document) is
in the catalogs, taken there by the Babel extractor of babel.cfg."""

from __future__ import annotations

import io
from html import unescape
from pathlib import Path

import pytest
from babel.support import Translations

from server.web.api.doc_texts import extract, literals_as_code, operation_text

ROOT = Path(__file__).resolve().parents[3]
API = ROOT / "server" / "web" / "api"


def spec_texts(app) -> set[str]:
    spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return {
        operation_text(op.get("summary", ""), op.get("description", ""))
        for item in spec["paths"].values()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    }


def extracted_texts() -> set[str]:
    found = set()
    for module in API.glob("*.py"):
        messages = extract(io.BytesIO(module.read_bytes()), ["N_", "gettext"], [], {})
        found |= {text for _, _, text, _ in messages if isinstance(text, str)}
    return found


def test_the_extractor_finds_every_operations_text(app):
    texts = spec_texts(app)
    assert len(texts) >= 12  # every operation is documented by its docstring
    assert texts <= extracted_texts()


@pytest.mark.parametrize("lang", ["nl", "de", "fr"])
def test_the_docs_page_says_each_operation_in_the_readers_language(app, lang):
    catalog = Translations.load(str(ROOT / "server" / "translations"), [lang])
    page = unescape(app.test_client().get("/api/v1/docs", headers={"Accept-Language": lang}).text)
    for text in spec_texts(app):
        translated = catalog.gettext(text)
        assert translated != text, f"{lang}: no translation of {text!r}"
        shown = unescape(str(literals_as_code(translated)))
        assert shown in page and unescape(str(literals_as_code(text))) not in page
    assert "``" not in page


def test_inline_literals_show_as_code_and_the_rest_stays_escaped():
    shown = literals_as_code("after ``timeout`` seconds <b>``a<b``")
    assert str(shown) == "after <code>timeout</code> seconds &lt;b&gt;<code>a&lt;b</code>"


def test_the_docs_page_shows_a_parameter_as_code(app):
    page = app.test_client().get("/api/v1/docs", headers={"Accept-Language": "en"}).text
    assert "<code>timeout</code> seconds" in page and "``" not in page
