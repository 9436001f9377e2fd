"""Maps in a real Chromium (docs/media.md §10): a post's place and uploaded track are drawn
by static/stgy-map.js with Leaflet from our static files, under the site's CSP, and
without tiles configured the page asks no other host."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from sns.services import tracks
from sns.web.display import post_url
from tests.browser.conftest import screenshot_dir
from tests.factories import PASSWORD, make_post, make_user
from tests.media.conftest import _media_dir  # noqa: F401 - autouse: the local store under tmp_path
from tests.media.track_files import make_fit, route

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _upload_track(user) -> str:
    from sns.media import storage

    presigned = tracks.track_presign(user, user.id, "ride.fit", 1000)
    storage.write(storage.tracks_bucket(), presigned["objectKey"], make_fit(route(60)), "application/octet-stream")
    return tracks.track_finalize(user, user.id, presigned["objectKey"])["preview"]["key"]


def test_a_place_and_a_track_are_drawn_without_any_other_host(open_session, live_server):
    alice = make_user("Alice")
    preview_key = _upload_track(alice)
    post = make_post(alice, "Out and about\n\n@[Tokyo Station](map://139.7671,35.6812,15|139.768,35.682;Gate)\n\n"
                            f"@[Morning ride](/tracks/{preview_key})")
    session = open_session(alice)
    page = session.page
    hosts, console_errors = set(), []
    page.on("request", lambda request: hosts.add(urlsplit(request.url).netloc))
    page.on("console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None)
    page.goto(post_url(post.hex_id))
    figures = page.locator("figure.stgy-track-map.drawn")
    expect(figures).to_have_count(2)
    # Leaflet made a map in each; the track is an SVG polyline and pins are circles.
    expect(figures.nth(0).locator(".leaflet-container")).to_have_count(1)
    expect(figures.nth(1).locator("path.leaflet-interactive")).to_have_count(3)  # line, start, end
    expect(figures.nth(0).locator("path.leaflet-interactive")).to_have_count(2)  # pin, centre
    expect(figures.nth(0).locator(".stgy-map-canvas.blank")).to_have_count(1)
    box = figures.nth(1).locator(".stgy-map-canvas").bounding_box()
    assert box["height"] > 200 and box["width"] > 200
    # The text stays for screen readers and for readers without JavaScript.
    expect(figures.nth(0).locator(".stgy-map-text")).to_contain_text("35.68120° N, 139.76710° E")
    page.locator("article.post").first.screenshot(path=str(screenshot_dir() / "post-with-place-and-track.png"))
    assert hosts == {urlsplit(live_server.url).netloc}
    assert not [e for e in console_errors if "Content Security Policy" in e]


def test_without_javascript_the_map_is_text(browser, live_server):
    alice = make_user("Bob")
    post = make_post(alice, "@[Somewhere](map://10W,20S,8)")
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/login")
        page.fill("input[name=email]", alice.email)
        page.fill("input[name=password]", PASSWORD)
        page.click("button:has-text('Log in')")
        page.wait_for_url("**/")
        page.goto(post_url(post.hex_id))
        figure = page.locator("figure.stgy-track-map")
        expect(figure).to_contain_text("20.00000° S, 10.00000° W")
        expect(figure.locator(".leaflet-container")).to_have_count(0)
    finally:
        context.close()


GPX = """<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Loop</name><trkseg>
<trkpt lat="35.6812" lon="139.7671"><ele>12.0</ele><time>2026-05-01T06:00:00Z</time></trkpt>
<trkpt lat="35.6830" lon="139.7700"><ele>14.5</ele><time>2026-05-01T06:01:00Z</time></trkpt>
<trkpt lat="35.6850" lon="139.7720"><ele>15.0</ele><time>2026-05-01T06:02:00Z</time></trkpt>
</trkseg></trk></gpx>"""


@pytest.mark.parametrize("name,mime,payload", [
    ("loop.gpx", "application/gpx+xml", GPX.encode()),
    ("ride.fit", "application/octet-stream", None),
])
def test_add_a_track_in_the_compose_box_and_see_it_on_a_map(open_session, name, mime, payload):
    from sns.models import Post
    from sns.models.media import MediaTrack

    alice = make_user("Carol")
    page = open_session(alice).page
    zone = page.locator("[data-testid=track-upload]")
    expect(zone).to_be_visible()
    zone.locator("input[type=file]").set_input_files(
        {"name": name, "mimeType": mime, "buffer": payload or make_fit(route(25))})
    expect(zone.locator("[data-upload-status]")).to_have_text(re.compile(r"^Uploaded "))
    textarea = page.locator("textarea[name=content]")
    expect(textarea).to_have_value(re.compile(r"@\[(loop|ride)\]\(/tracks/[0-9A-F]{16}/previews/\d{6}/[0-9a-f]{16}\.trjgz\)"))
    textarea.press("End")
    textarea.type("Today's route.")
    page.click("button:has-text('Post')")
    page.wait_for_url("**/")
    figure = page.locator("article.post").first.locator("figure.stgy-track-map.drawn")
    expect(figure.locator("path.leaflet-interactive")).to_have_count(3)
    row = MediaTrack.objects.get(owner=alice)
    assert row.point_count == (3 if name.endswith(".gpx") else 25)
    assert row.master_key.endswith(".trjgz" if name.endswith(".gpx") else ".fit")
    assert f"/tracks/{row.preview_key}" in Post.objects.get(owner=alice).content


def test_a_track_still_being_parsed_is_awaited_by_the_compose_box(open_session, settings):
    """Finalize answers 202 "processing" when the parsing task has not finished (here it
    runs on the server's background threads, and finalize does not wait at all);
    static/stgy-upload.js asks GET .../tracks/finalize?key= until it has."""
    from sns.models.media import MediaTrack, TrackUpload

    settings.STGY_EAGER_TASKS_INLINE = False
    settings.STGY_MEDIA_TRACK_FINALIZE_WAIT_MS = 0
    alice = make_user("Dana")
    page = open_session(alice).page
    answers = []
    page.on("response", lambda r: answers.append(r.status) if "/tracks/finalize" in r.url else None)
    zone = page.locator("[data-testid=track-upload]")
    zone.locator("input[type=file]").set_input_files(
        {"name": "ride.fit", "mimeType": "application/octet-stream", "buffer": make_fit(route(25))})
    expect(zone.locator("[data-upload-status]")).to_have_text(re.compile(r"^Uploaded "), timeout=20_000)
    row = MediaTrack.objects.get(owner=alice)
    expect(page.locator("textarea[name=content]")).to_have_value(re.compile(re.escape(f"/tracks/{row.preview_key})")))
    assert answers[0] == 202 and answers[-1] == 200
    assert TrackUpload.objects.get(owner=alice).state == "done"
