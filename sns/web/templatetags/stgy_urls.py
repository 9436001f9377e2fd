"""`{% url %}` with the reversed path kept per process, for the templates that
`{% load stgy_urls %}` (the base template and the busiest pages): a home view reverses
about twenty names, the same ones on every request, and resolving each through the URL
patterns was about a twelfth of the view's CPU (bench/page_cpu).

The parsing and the output are Django's own tag's (a failed reverse is not kept and
raises, or gives "" with `as`, as before); only `reverse` is remembered, keyed by
everything it depends on: the name, the arguments, the current app and the request's
configuration (its URLconf and script prefix, sns/web/kept.py `configuration`); a
changed ROOT_URLCONF (a test's) empties the store."""

from __future__ import annotations

from django import template
from django.core.signals import setting_changed
from django.template import defaulttags
from django.urls import reverse
from django.utils.html import conditional_escape

from ..kept import KeptStore, configuration

register = template.Library()

# A page's names are a few dozen; the arguments are ids (a profile link is one per
# viewer), so the store is emptied rather than allowed to grow.
_kept = KeptStore(4096)
_PLAIN = (str, int)
_UNSET = object()


def kept_reverse(view_name, args, kwargs, current_app, request=None) -> str:
    """`reverse`, kept; `request` is the one being served, whose configuration
    (kept.configuration) is read once."""
    if not (
        isinstance(view_name, str)
        and all(type(a) in _PLAIN for a in args)
        and all(type(v) in _PLAIN for v in kwargs.values())
        and (current_app is None or isinstance(current_app, str))
    ):
        return reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
    key = (view_name, tuple(args), tuple(sorted(kwargs.items())), current_app, *configuration(request))
    url = _kept.get(key)
    if url is None:
        url = _kept.put(key, reverse(view_name, args=args, kwargs=kwargs, current_app=current_app))
    return url


class KeptURLNode(defaulttags.URLNode):
    def render(self, context):
        from django.urls import NoReverseMatch

        args = [arg.resolve(context) for arg in self.args]
        kwargs = {k: v.resolve(context) for k, v in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        # Django's node's choice of the current app, without raising and catching an
        # AttributeError for the `current_app` a request rarely has.
        request = getattr(context, "request", None)
        current_app = getattr(request, "current_app", _UNSET)
        if current_app is _UNSET:
            match = getattr(request, "resolver_match", None)
            current_app = getattr(match, "namespace", None)
        url = ""
        try:
            url = kept_reverse(view_name, args, kwargs, current_app, request)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser, token):
    node = defaulttags.url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)


def clear() -> None:
    _kept.clear()


def _setting_changed(*, setting, **_signal) -> None:
    # The URL patterns themselves: not in the key, as reading a setting on every
    # `{% url %}` costs more than the reverse it saves would suggest; it changes only
    # when a test overrides it, and Django's own URL caches are cleared on this signal.
    if setting == "ROOT_URLCONF":
        clear()


setting_changed.connect(_setting_changed, dispatch_uid="sns.web.templatetags.stgy_urls")
