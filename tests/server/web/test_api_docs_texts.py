"""The API's docs page speaks the reader's language: each operation's text
(its view's docstring, which flask-smorest puts in the OpenAPI document) is
in the catalogs, taken there by the Babel extractor of babel.cfg."""

from __future__ import annotations

import io
from html import unescape
from pathlib import Path

import pytest
from babel.support import Translations

from server.web.api.doc_texts import extract, operation_text

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
        assert translated in page and text not in page
