"""The environment every template of pbem is rendered in: jinja2's, with three of its steps taken by
a shorter way that gives the same text. A board's SVG writes a few thousand numbers and colours, each
escaped on its way out, reads most of them as a dict's keys and calls a macro or a function for
each shape; jinja2's general way of these is half the cost of rendering a board."""

from __future__ import annotations

from functools import _lru_cache_wrapper
from types import BuiltinFunctionType, FunctionType
from typing import Any, MutableMapping

import jinja2
from jinja2.runtime import Context as _Context, Macro
from markupsafe import Markup, escape as _escape

#: what a plain dict has as attributes: jinja2 gives `x.name` the attribute first, the item after
_DICT_ATTRIBUTES = frozenset(dir(dict))
#: the values escaped so far, by their type: a board writes the same numbers and colours again and again
_ESCAPED: dict[type, dict[Any, Markup]] = {str: {}, int: {}, float: {}}
_KEPT = 8192  # the values each of them keeps at most
_SHORT = 64  # the longest words kept (a player's long text is escaped each time, not kept)


def escape(value: Any) -> Markup:
    """markupsafe's `escape`, the same Markup, without its costs for a number or a str met before."""
    known = _ESCAPED.get(type(value))
    if known is None:
        return _escape(value)
    markup = known.get(value)
    if markup is None:
        markup = _escape(value)
        if len(markup) <= _SHORT and (value or type(value) is not float):  # -0.0 is 0.0 as a key, not as words
            if len(known) >= _KEPT:
                known.clear()
            known[value] = markup
    return markup


#: what a template calls that cannot carry jinja2's mark asking for the context (`jinja_pass_arg`),
#: and what carries it in its own `__dict__` where it does (a function, and one with functools' cache)
_UNMARKED = frozenset({Macro, BuiltinFunctionType})
_MARKED_IN_DICT = frozenset({FunctionType, _lru_cache_wrapper})


class Context(_Context):
    """jinja2's context, which calls a macro, a builtin or a function not marked to be passed the
    context, the environment or the evaluation context without looking for the marks twice."""

    def call(self, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        kind = type(obj)
        if kind not in _UNMARKED and (kind not in _MARKED_IN_DICT or "jinja_pass_arg" in obj.__dict__):
            return super().call(obj, *args, **kwargs)
        if kwargs:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
        try:
            return obj(*args, **kwargs)
        except StopIteration:
            return self.environment.undefined("value was undefined because a callable raised a StopIteration exception")


class Template(jinja2.Template):
    """A template whose compiled code escapes with `escape`."""

    @classmethod
    def _from_namespace(cls, environment: jinja2.Environment, namespace: MutableMapping[str, Any],
                        globals: MutableMapping[str, Any]) -> jinja2.Template:
        namespace["escape"] = escape  # the name the compiled code imported from jinja2.runtime
        return super()._from_namespace(environment, namespace, globals)


class Environment(jinja2.Environment):
    """jinja2's environment: the same rendering, the same errors, with `Template`, `Context` and, for a
    plain dict, `x.name` read as the item at once (what jinja2 reads after it finds no such attribute)."""

    template_class = Template
    context_class = Context

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)
