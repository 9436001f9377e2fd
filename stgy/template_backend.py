"""Django's template backend, with the context it makes for a render let go of by
reference counting alone.

Django's `RequestContext` holds its layers in `dicts`, and each layer made by `push`
or `update` (a `ContextDict`) points back at the context: a cycle. A page's context
holds everything the page shows (the cards' posts, users and forms), so every page view
left all of it to the garbage collector, whose young collections a page view triggered
about every third request in a worker.
The context is this render's own (`make_context` makes it, nothing keeps
it), so emptying its layer list once the render is done breaks the cycle; the test
client's copies of it (`response.context`) hold lists of their own.
"""

from __future__ import annotations

from django.template import TemplateDoesNotExist
from django.template.backends import django as django_backend
from django.template.backends.django import reraise
from django.template.context import make_context


class Template(django_backend.Template):
    def render(self, context=None, request=None):
        context = make_context(context, request, autoescape=self.backend.engine.autoescape)
        try:
            content = self.template.render(context)
        except TemplateDoesNotExist as exc:
            reraise(exc, self.backend)
        # Left as it is on a failure, for the error page's view of the frames.
        context.dicts.clear()
        return content


class DjangoTemplates(django_backend.DjangoTemplates):
    def from_string(self, template_code):
        return Template(self.engine.from_string(template_code), self)

    def get_template(self, template_name):
        try:
            return Template(self.engine.get_template(template_name), self)
        except TemplateDoesNotExist as exc:
            reraise(exc, self)
