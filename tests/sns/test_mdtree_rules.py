"""The original's own test cases for the snippet path (packages/markdown/src/index.test.ts:
parseMarkdown, mdFilterForFeatured, mdCutOff, mdRenderText; backend/src/utils/snippet.test.ts),
translated input for input."""

import json
import time

import pytest

from sns.mdtree import (
    cut_off, deserialize, filter_for_featured, make_snippet, notification_text, parse_markdown,
    render_text, serialize, snippet_text,
)


def T(text):
    return {"type": "text", "text": text}


def E(tag, children=(), attrs=None):
    node = {"type": "element", "tag": tag, "children": list(children)}
    if attrs:
        node["attrs"] = attrs
    return node


# --- parseMarkdown

def test_parse_empty_body():
    assert parse_markdown("") == []


def test_parse_paragraph():
    assert parse_markdown("hello world") == [E("p", [T("hello world")])]


def test_parse_list_with_meta_item():
    assert parse_markdown("- hello world\n- me too\n-@author John Doe") == [
        E("ul", [E("li", [T("hello world")]), E("li", [T("me too")]),
                 E("li", [T("John Doe")], {"meta": "author"})])
    ]


def test_parse_comments():
    assert parse_markdown("one\n<[uno]>\ntwo<[dos]>three\n- four\n<[tres]>\n- five\n") == [
        E("p", [T("one"), E("br"), T("two"), T("three")]),
        E("ul", [E("li", [T("four")]), E("li", [T("five")])]),
    ]


# --- mdFilterForFeatured

def _featured(src, caption, img_attrs=None):
    return E("figure", [E("img", [], {"src": src, **(img_attrs or {})}), E("figcaption", [T(caption)])],
             {"class": "featured-block"})


def test_featured_is_the_first_image():
    nodes = filter_for_featured(parse_markdown("abc\n![alt](/data/first.jpg)\ndef\n![alt](/data/second.jpg)\n"))
    assert nodes == [_featured("/data/first.jpg", "alt"), E("p", [T("abc")]), E("p", [T("def")])]


def test_featured_is_the_tagged_image():
    md = "abc\n![alt](/data/first.jpg)\ndef\n![alt](/data/second.jpg){featured}\n"
    assert filter_for_featured(parse_markdown(md)) == [
        _featured("/data/second.jpg", "alt", {"featured": True}), E("p", [T("abc")]), E("p", [T("def")])
    ]


def test_no_featured_images_leave_no_figure():
    md = "abc\n![alt](/data/first.jpg){no-featured}\ndef\n![alt](/data/second.jpg){no-featured}\n"
    assert filter_for_featured(parse_markdown(md)) == [E("p", [T("abc")]), E("p", [T("def")])]


# --- mdCutOff

def test_cut_by_length():
    assert cut_off(parse_markdown("- hello world\n- me too"), max_len=5) == [
        E("ul", [E("li", [T("hello…")])])
    ]


def test_cut_by_multibyte_length():
    assert cut_off(parse_markdown("いろはにほへと"), max_len=6) == [E("p", [T("いろは…")])]


def test_cut_by_height():
    assert cut_off(parse_markdown("- hello world\n- me too"), max_height=1) == [
        E("ul", [E("li", [T("hello world")]), E("omitted")])
    ]


def test_cut_by_hr():
    assert cut_off(parse_markdown("hop\n---\nstep"), max_height=1) == [E("p", [T("hop")]), E("omitted")]


def test_cut_drops_toc():
    assert cut_off(parse_markdown("abc\n<!TOC!>\ndef"), max_len=100) == [E("p", [T("abc")]), E("p", [T("def")])]


def test_long_paragraph_is_partly_kept_with_ellipsis():
    md = "test **abc** [def](/ghi.html) ::jkl:: {{mno|pqr}}\n" * 30
    nodes = cut_off(parse_markdown(md), max_len=200, max_height=10, img_len=50, img_height=2)
    text = render_text(nodes)
    assert nodes and nodes[0]["tag"] == "p"
    assert text and text.endswith("…")
    assert nodes != [E("omitted")]


def test_height_cap_still_yields_some_text():
    nodes = cut_off(parse_markdown("A" * 1000), max_len=1000, max_height=1, img_len=50, img_height=2)
    assert render_text(nodes)


def test_dynamic_image_cost_allows_the_first_figure_and_cuts_on_the_second():
    md = "![one](https://ex/a.jpg)\n\n![two-two-two-two-two](https://ex/b.jpg)"
    stored = serialize(cut_off(parse_markdown(md), max_len=8, max_height=10, img_len=-1, img_height=1))
    assert '"figure"' in stored and '"omitted"' in stored


def test_fixed_image_cost_consumes_the_length_budget():
    md = "![a](https://ex/a.jpg)\n\n![b](https://ex/b.jpg)"
    nodes = cut_off(parse_markdown(md), max_len=7, max_height=10, img_len=5, img_height=1)
    figures = [n for n in nodes if n["tag"] == "figure"]
    assert "https://ex/a.jpg" in json.dumps(figures[0])
    if len(figures) >= 2:
        second = json.dumps(figures[1])
        assert '"omitted"' in second and '"img"' not in second
    else:
        assert '"omitted"' in json.dumps(nodes)


def test_pre_with_many_lines_respects_the_height():
    code = "\n".join(f"L{i}" for i in range(12))
    nodes = cut_off(parse_markdown(f"```\n{code}\n```"), max_len=1000, max_height=3, img_len=50, img_height=2)
    assert nodes[0]["tag"] == "pre"


def test_caption_is_trimmed_to_capt_max_len():
    nodes = cut_off(parse_markdown("![this is a very very very long caption](https://ex/a.jpg)"),
                    max_len=1000, max_height=10, img_len=50, img_height=2, capt_max_len=10)
    assert "…" in render_text(nodes)


def test_no_omitted_marker_after_an_ellipsis():
    nodes = cut_off(parse_markdown("X" * 300), max_len=50, max_height=100, img_len=50, img_height=2)
    assert render_text(nodes).endswith("…") and '"omitted"' not in json.dumps(nodes)


# --- mdRenderText

@pytest.mark.parametrize("md, text", [
    ("", ""),
    ("hello world", "hello world"),
    ("# hello world", "hello world"),
    ("## hello world", "hello world"),
    ("### hello world", "hello world"),
    ("###### hello world", "hello world"),
    ("- hello world", "- hello world"),
    ("|=a=|>>b|\n|=c=|><d|={colspan=2}{rowspan=3}e=|", "|a|b|\n|c|d|e|"),
    ("![tako](/data/tako.jpg)", "tako"),
    ("**bold** ::italic:: __underline__ ~~strike~~ ``code`` @@mark@@ %%small%%",
     "bold italic underline strike code mark small"),
    ("{{base|ruby}} {{123 456|hop step}}", "base(ruby) 123 456(hop step)"),
    ("$$E = mc^2$$ $$\\sum_{i=1}^{\\sqrt{n}}$$", "E = mc^2 \\sum_{i=1}^{\\sqrt{n}}"),
    ("[gold](http://gold.com/) [silver](/silver.html)", "gold silver"),
    ("abc\n<!TOC!>\ndef", "abc\n\ndef"),
])
def test_render_text(md, text):
    assert render_text(parse_markdown(md)) == text


# --- backend/src/utils/snippet.test.ts

def test_snippet_simple():
    assert make_snippet("hello world") == '[{"T":"p","X":"hello world"}]'


def test_snippet_drops_youtube_embeds():
    md = "before\n\n@[Video](https://youtu.be/dQw4w9WgXcQ)\n\nafter"
    assert make_snippet(md) == '[{"T":"p","X":"before"},{"T":"p","X":"after"}]'


def test_snippet_complex():
    assert make_snippet("# H\nP\n![ALT](/URL)\n- li1\n- li2\n") == (
        '[{"T":"figure","C":[{"T":"img","SR":"/URL"},{"T":"figcaption","X":"ALT"}],"CL":"featured-block"},'
        '{"T":"h1","X":"H"},{"T":"p","X":"P"},{"T":"ul","C":[{"T":"li","X":"li1"},{"T":"li","X":"li2"}]}]'
    )


def test_text_from_snippet():
    assert snippet_text('[{"T":"p","X":"hello world"}]') == "hello world"


# --- ours

def test_notification_text_ends_at_50_pseudo_tokens():
    assert notification_text(make_snippet("a" * 80)) == "a" * 50
    # a full-width character weighs 2: the 25th reaches 50
    assert notification_text(make_snippet("あ" * 40)) == "あ" * 25


def test_a_plain_legacy_snippet_shows_as_it_is():
    assert snippet_text("plain words from before") == "plain words from before"
    assert snippet_text("") == ""


def test_unknown_attributes_round_trip_under_A():
    stored = make_snippet("![c](/a.jpg){size=large}")
    assert '"A":{"size":"large"}' in stored
    assert deserialize(stored)[0]["children"][0]["attrs"] == {"src": "/a.jpg", "size": "large"}


def test_deep_escapes_do_not_exhaust_the_stack():
    # every escape splits the text; the original recursed once per escape
    stored = make_snippet("\\*" * 5000)
    assert snippet_text(stored).startswith("*" * 100)


@pytest.mark.parametrize("md", [
    "|=" + " " * 9000 + "a|",               # a header-cell test that is quadratic as a regex
    "|=" + " " * 4500 + "a" + " " * 4500 + "=|",
    "a" + " " * 9000 + "b",
    "[a](/" * 3000,                        # many link starts without an end
    "<[" * 4000,
])
def test_long_adversarial_lines_stay_fast(md):
    started = time.perf_counter()
    make_snippet(md)
    assert time.perf_counter() - started < 2.0
