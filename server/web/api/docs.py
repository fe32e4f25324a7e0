"""/api/v1/docs: the API's operations, listed from its OpenAPI document on a
plain page.  The usual documentation viewers need a script from another
site, which the site's Content-Security-Policy forbids (and which this
machine cannot fetch to ship); the document itself is /api/v1/openapi.json."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template
from flask_babel import gettext

from server.web.api.doc_texts import literals_as_code, operation_text

bp = Blueprint("api_docs", __name__)
METHODS = ("get", "post", "put", "patch", "delete")


def operations(spec: dict) -> list[dict]:
    found = []
    for path, item in spec.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                op = item[method]
                found.append(
                    {
                        "method": method.upper(),
                        "path": path,
                        # In the catalogs by the docstring (doc_texts.extract).
                        "text": literals_as_code(
                            gettext(
                                operation_text(op.get("summary", ""), op.get("description", ""))
                            )
                        ),
                        "codes": sorted(op.get("responses", {})),
                    }
                )
    return found


@bp.get("/api/v1/docs")
def docs():
    spec = current_app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return render_template(
        "api/docs.html",
        operations=operations(spec),
        description=spec["info"].get("description", ""),
    )
