"""Read a page the way assistive technology does for one form field: the control
named `name`, whether it is marked invalid, and the text of the elements its
aria-describedby points at (each of which must exist)."""

from __future__ import annotations

from html.parser import HTMLParser

_VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr", "area", "col", "embed"}


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.controls: dict[str, dict] = {}  # name -> attributes of the first control so named
        self.texts: dict[str, list[str]] = {}  # id -> text inside that element
        self.values: dict[str, str] = {}  # textarea name -> its text
        self._open: list[tuple[str, str | None]] = []
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag in ("input", "textarea", "select") and name and name not in self.controls:
            self.controls[name] = {**attrs, "tag": tag}
            if tag == "textarea":
                self._textarea = name
                self.values[name] = ""
        if tag in _VOID:
            return
        element_id = attrs.get("id")
        if element_id:
            self.texts.setdefault(element_id, [])
        self._open.append((tag, element_id))

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index][0] == tag:
                del self._open[index:]
                break

    def handle_data(self, data):
        if self._textarea:
            self.values[self._textarea] += data
        for _, element_id in self._open:
            if element_id:
                self.texts[element_id].append(data)


def read_page(response_or_html) -> _Page:
    html = response_or_html if isinstance(response_or_html, str) else response_or_html.content.decode()
    parser = _Page()
    parser.feed(html)
    return parser


def field_error(response_or_html, name: str) -> str:
    """The error text announced for the control `name`; asserts it is marked invalid and
    that every id its aria-describedby names exists on the page."""
    page = read_page(response_or_html)
    control = page.controls.get(name)
    assert control is not None, f"no control named {name!r}"
    assert control.get("aria-invalid") == "true", f"{name} is not marked invalid: {control}"
    ids = (control.get("aria-describedby") or "").split()
    missing = [i for i in ids if i not in page.texts]
    assert ids and not missing, f"{name}: aria-describedby {ids}, missing {missing}"
    errors = [" ".join("".join(page.texts[i]).split()) for i in ids if i.endswith("_error")]
    assert errors, f"{name}: no error element among {ids}"
    return " ".join(errors)


def field_value(response_or_html, name: str) -> str:
    """What the control `name` shows: a textarea's text or an input's value."""
    page = read_page(response_or_html)
    control = page.controls[name]
    if control["tag"] == "textarea":
        return page.values[name].lstrip("\n")
    return control.get("value") or ""
