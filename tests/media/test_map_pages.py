"""A post with a place or a track on our pages (docs/media.md §10): the figure is in the
page with its data and its text, Leaflet and the map script come from our own static
files, and no other host is named unless STGY_MAP_TILE_URL is set."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from sns.web.display import post_url
from stgy import security_headers
from tests.conftest import login_client
from tests.factories import make_post
from tests.media.flow import full_flow
from tests.media.track_files import make_trjgz

pytestmark = pytest.mark.django_db


def _config(page: str) -> dict:
    return json.loads(re.search(r'<script id="stgy-map-config" type="application/json">(.*?)</script>',
                                page, re.S).group(1))


def test_the_post_page_shows_a_place_and_a_track(human):
    preview = full_flow(login_client(human), human, make_trjgz(), "walk.trjgz", "tracks").json()["preview"]
    post = make_post(human, "A walk\n\n@[Tokyo Station](map://139.7671,35.6812,16)\n\n"
                            f"@[The route](/tracks/{preview['key']}){{size=large}}")
    client = Client()
    client.force_login(human)
    response = client.get(post_url(post.hex_id))
    page = response.content.decode()
    assert page.count('class="stgy-track-map') == 2 and "map-large" in page
    assert "35.68120° N, 139.76710° E" in page and "(zoom 16)" in page
    assert "Track of " in page and f"/storage/stgy-tracks/{preview['key']}" in page
    assert '<script src="/static/stgy-map.js" defer></script>' in page
    config = _config(page)
    assert config["tileUrl"] == "" and config["leafletJs"].endswith("leaflet/leaflet.js")
    # Unconfigured: nothing on the page points at another host.
    assert not [u for u in re.findall(r'(?:src|href)="(https?://[^"]+)"', page)]
    assert finders.find("leaflet/leaflet.js") and finders.find("leaflet/leaflet.css")
    assert finders.find("stgy-map.js") and finders.find("stgy-map.css")


def test_public_site_pages_stay_script_free_and_show_maps_as_text(human):
    from django.template.loader import get_template

    source = get_template("publication/base.html").template.source
    assert "stgy-map.css" in source and "<script" not in source


def test_tiles_come_from_the_setting_and_their_host_is_allowed_only_then(human, settings):
    assert security_headers._tile_origin() == ""
    settings.STGY_MAP_TILE_URL = "https://{s}.tiles.example.org/{z}/{x}/{y}.png"
    settings.STGY_MAP_TILE_ATTRIBUTION = "© Example contributors"
    assert security_headers._tile_origin() == " https://a.tiles.example.org"
    settings.STGY_MAP_TILE_URL = "http://tiles.local:8080/{z}/{x}/{y}.png"
    assert security_headers._tile_origin() == " http://tiles.local:8080"
    client = Client()
    client.force_login(human)
    config = _config(client.get("/").content.decode())
    assert config["tileUrl"] == "http://tiles.local:8080/{z}/{x}/{y}.png"
    assert config["attribution"] == "© Example contributors"
