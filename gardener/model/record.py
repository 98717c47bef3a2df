"""``Record``: ``typing.NamedTuple`` without importing typing at run time.

``gardener note`` loads the modules that declare its records
(``gardener.verbs.note``, ``gardener.git.identity``, ``gardener.store.journal``,
``gardener.neverstore``...), and importing typing costs ~4 ms of a note's
start. So they subclass ``Record``, which mypy reads as
``typing.NamedTuple`` (fields, defaults and methods are checked as usual), and
which at run time builds the same class: a ``collections.namedtuple`` with the
annotated fields, their defaults, and the body's methods, properties and
docstring (``collections`` is loaded anyway: ``re`` imports it)::

    class Point(Record):
        x: int
        y: int = 0

        def norm(self) -> int:
            return abs(self.x) + abs(self.y)

As with ``typing.NamedTuple``, the class made is a plain namedtuple (a
``tuple`` subclass; not a subclass of ``Record``), a field without a default
cannot follow one with a default (TypeError), and a body may not redefine
``_replace``, ``_fields``, ``__new__`` and the like (AttributeError).
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
    from collections import namedtuple

    # as typing.NamedTuple: names the namedtuple itself defines, which a body
    # must not replace, and names of the body that are not copied to the class
    _PROHIBITED = frozenset(
        {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields",
         "_field_defaults", "_make", "_replace", "_asdict", "_source"}
    )  # fmt: skip
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__", "__classcell__"})

    class _RecordMeta(type):
        """Makes each subclass of ``Record`` a namedtuple (see the module)."""

        def __new__(
            mcs, name: str, bases: tuple[type, ...], body: dict[str, object]
        ) -> type:
            if not bases:  # Record itself
                return super().__new__(mcs, name, bases, body)
            if bases != (Record,):
                raise TypeError("a Record can only inherit from Record")
            fields = dict(body.get("__annotations__", {}))
            defaulted: list[str] = []  # fields with a default, in order
            for field in fields:
                if field in body:
                    defaulted.append(field)
                elif defaulted:  # typing.NamedTuple's message
                    raise TypeError(
                        f"Non-default namedtuple field {field} cannot follow default"
                        f" field{'s' if len(defaulted) > 1 else ''} {', '.join(defaulted)}"
                    )
            made = namedtuple(
                name,
                list(fields),
                defaults=[body[field] for field in defaulted],
                module=body["__module__"],
            )
            made.__annotations__ = fields
            for key, value in body.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
                if key not in _SPECIAL and key not in fields:
                    setattr(made, key, value)  # methods, properties, __doc__...
            if "__classcell__" in body:  # a method calls super() or uses __class__
                body["__classcell__"].cell_contents = made
            return made

    class Record(metaclass=_RecordMeta):
        """Subclass it as ``typing.NamedTuple`` (see the module)."""


__all__ = ["Record"]
