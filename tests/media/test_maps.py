"""Maps in posts (sns/media/maps.py): the original's `@[caption](map://...)` and
`@[caption](/tracks/...)` lines become a figure with the data for static/stgy-map.js and
the same facts as text; nothing else is touched and nothing unsafe gets through."""

from __future__ import annotations

import html
import json
import re

import pytest

from sns.media import maps
from sns.reads.markdown import render_html
from tests.conftest import login_client
from tests.media.flow import full_flow
from tests.media.track_files import make_fit, route

pytestmark = pytest.mark.django_db


def _data(rendered: str) -> list[dict]:
    return [json.loads(html.unescape(m)) for m in re.findall(r'data-map="([^"]*)"', rendered)]


def test_a_place_becomes_a_map_with_its_coordinates_as_text():
    rendered = render_html("Before\n@[Akasutsumi, Setagaya](map://139.6444794,35.6595519,15)\nAfter")
    assert "<p>Before</p>" in rendered and "<p>After</p>" in rendered
    assert _data(rendered) == [{"kind": "place", "lon": 139.6444794, "lat": 35.6595519, "zoom": 15, "pins": []}]
    assert "35.65955° N, 139.64448° E" in rendered and "(zoom 15)" in rendered
    assert "<figcaption>Akasutsumi, Setagaya</figcaption>" in rendered


def test_pins_suffixes_default_zoom_and_options():
    rendered = render_html(
        "@[Walk](map://139.64E,35.65N|139.6444,35.6595;Bakery;Delicious;https://example.com/ "
        "javascript:void;/images/x.webp|10W,20S;Park){size=small,float=left}")
    (data,) = _data(rendered)
    assert (data["lon"], data["lat"], data["zoom"]) == (139.64, 35.65, 13)
    assert data["pins"] == [
        {"lon": 139.6444, "lat": 35.6595, "title": "Bakery", "description": "Delicious",
         "urls": ["https://example.com/"]},
        {"lon": -10.0, "lat": -20.0, "title": "Park"},
    ]
    assert 'class="stgy-track-map map-small map-float-left"' in rendered
    assert "javascript" not in rendered and "<strong>Bakery</strong>" in rendered
    assert "20.00000° S, 10.00000° W" in rendered


@pytest.mark.parametrize("url", ["map://200,10", "map://10,95", "map://1,2,23", "map://abc,1", "map://"])
def test_an_invalid_place_draws_nothing(url):
    rendered = render_html(f"@[Bad]({url})")
    assert _data(rendered) == [] and "An invalid map location." in rendered


def test_user_text_is_escaped_everywhere():
    rendered = render_html('@[x"><script>alert(1)</script>](map://1,2|1,2;<img src=x onerror=alert(1)>;"q")')
    assert "<script" not in rendered and "onerror" not in rendered.replace("&lt;img src=x onerror", "")
    assert "&lt;script&gt;" in rendered


def test_ordinary_text_links_and_code_stay_as_they_were():
    assert "stgy-track-map" not in render_html("see @[me](https://example.com/page)")
    assert "stgy-track-map" not in render_html("    @[indented](map://1,2)")
    assert "stgy-track-map" not in render_html("```\n@[code](map://1,2)\n```")
    assert "stgy-track-map" not in render_html("text @[inline](map://1,2) more")


def test_an_uploaded_track_is_drawn_from_its_stored_summary(human):
    client = login_client(human)
    finalized = full_flow(client, human, make_fit(route(30)), "ride.fit", "tracks").json()
    preview_key = finalized["preview"]["key"]
    rendered = render_html(f"@[Ride](/tracks/{preview_key}|139.77,35.685;Cafe){{base=osm}}")
    (data,) = _data(rendered)
    assert data["kind"] == "track" and data["bbox"][:2] == [139.7671, 35.6812]
    assert len(data["lines"][0]) == 30 and data["pins"] == [{"lon": 139.77, "lat": 35.685, "title": "Cafe"}]
    assert "Track of 3." in rendered and "35.68120° N, 139.76710° E" in rendered
    assert f'href="/storage/stgy-tracks/{preview_key}"' in rendered


def test_a_track_that_is_not_ours_or_gone_is_text_only():
    rendered = render_html("@[Ride](/tracks/0000000000000001/previews/797394/ffffffff00000000.trjgz)")
    assert _data(rendered) == [] and "Track not available." in rendered
    assert _data(render_html("@[Ride](https://elsewhere.example/ride.trjgz)")) == []
    assert _data(render_html("@[Ride](/tracks/../../etc/passwd.fit)")) == []


def test_parse_line_ignores_other_embeds():
    assert maps.parse_line("@[Video](https://www.youtube.com/watch?v=BOF5PQ9Osc4)") is None
    assert maps.parse_line("@[Ride](/data/demo.trjgz)")["kind"] == "track"


def test_a_map_line_is_not_a_mention(human, ai_user):
    from sns.reads.mentions import mention_names, mentions_neutralise

    line = "@[Tokyo Station](map://139.7671,35.6812,16) and @[Someone Else]"
    assert mention_names(line) == ["someone else"]
    # An AI user's text keeps its maps while unknown mentions lose their "@".
    assert mentions_neutralise(line, set()) == "@[Tokyo Station](map://139.7671,35.6812,16) and Someone Else"


def test_prompts_see_a_map_as_its_caption():
    from agents.prompt_text import post_prompt_text

    text = ("Out today\n@[Tokyo Station](map://139.7671,35.6812,16)\n"
            "  @[](/tracks/0000000000000001/previews/797394/ffffffff00000000.trjgz){size=small}\n"
            "@[Video](https://www.youtube.com/watch?v=BOF5PQ9Osc4)")
    assert post_prompt_text(text, 1000) == (
        "Out today\n[map: Tokyo Station]\n[map]\n@[Video](https://www.youtube.com/watch?v=BOF5PQ9Osc4)")
