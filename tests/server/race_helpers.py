"""Two requests or processes meeting over the same rows, in a set order."""

from __future__ import annotations

import threading
from collections.abc import Callable

from server.db import db


def while_open(app, first: Callable, second: Callable, wait: float = 1.0) -> tuple:
    """Run ``first`` in a transaction that stays open until ``second``, run
    on another thread once ``first`` has returned, is done (or ``wait``
    seconds have passed: ``second`` may have to wait for ``first``'s locks).
    So ``second`` reads what was there before ``first`` wrote, unless a lock
    makes it wait; returns what each returned."""
    results: dict[str, object] = {}
    errors: list[BaseException] = []
    first_done, second_done = threading.Event(), threading.Event()

    def run_first():
        try:
            with app.app_context(), db.connection_context(), db.atomic():
                results["first"] = first()
                first_done.set()
                second_done.wait(wait)
        except BaseException as exc:  # re-raised on the test's thread
            errors.append(exc)
        finally:
            first_done.set()

    def run_second():
        first_done.wait(10)
        try:
            with app.app_context(), db.connection_context():
                results["second"] = second()
        except BaseException as exc:
            errors.append(exc)
        finally:
            second_done.set()

    threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    if errors:
        raise errors[0]
    return results["first"], results["second"]
