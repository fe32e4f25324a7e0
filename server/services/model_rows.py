"""Models made from plain rows, for the reads of every game page.

peewee makes a joined select's models column by column (a call of the
field's descriptor for each of a seat's and its user's forty-six columns),
which took more time than reading the rows.  A query that selects whole
models, one after the other, may read its rows as tuples instead (each
field's own conversion applied, as for models) and make the models here:
the same values, nothing marked changed, no relation loaded but the ones
the caller sets.  tests/server/services/test_model_rows.py compares them
with peewee's own."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TypeVar

from peewee import Model

M = TypeVar("M", bound=Model)


@cache
def field_names(model: type[Model]) -> tuple[str, ...]:
    """The names of ``model``'s columns in the order ``model.select()`` reads them."""
    return tuple(field.name for field in model._meta.sorted_fields)


def made(model: type[M], values: Sequence) -> M:
    """``model`` as peewee makes it from a row of ``model.select()``'s
    columns (``values``, already converted)."""
    found = model(__no_default__=True)  # no defaults, nothing dirty
    found.__data__ = dict(zip(field_names(model), values, strict=True))
    return found


def made_or_none(model: type[M], values: Sequence) -> M | None:
    """The same for the model of an outer join: None when the row had none
    (its primary key, the first column, is NULL)."""
    return made(model, values) if values[0] is not None else None
