"""POST /media/{userId}/images/import: an admin's server-side fetch of a remote image,
against a real HTTP server on loopback (allowed through STGY_MEDIA_IMPORT_ALLOWED_NETWORKS,
as an operator would allow an internal image host)."""

from __future__ import annotations

import pytest

from tests.conftest import login_client
from tests.factories import make_user
from tests.loopback_http import QuietHandler, serving
from tests.media.conftest import make_image

pytestmark = pytest.mark.django_db
PNG = make_image("PNG", size=(30, 20))


class _Handler(QuietHandler):
    def do_GET(self):  # noqa: N802 - http.server's naming
        routes = {
            "/cat.png": (200, {"Content-Type": "image/png"}, PNG),
            "/page.html": (200, {"Content-Type": "text/html"}, b"<html></html>"),
            "/moved": (302, {"Location": "/cat.png"}, b""),
            "/loop": (302, {"Location": "/loop"}, b""),
            "/big.png": (200, {"Content-Type": "image/png"}, PNG + b"\0" * 5000),
        }
        self.answer(*routes.get(self.path, (404, {}, b"no")))


@pytest.fixture
def image_host(settings):
    settings.STGY_MEDIA_IMPORT_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    with serving(_Handler) as base_url:
        yield base_url


def _import(client, user, url):
    return client.post(f"/api/media/{user.hex_id}/images/import", {"url": url}, format="json")


def test_admin_imports_an_image_and_redirects_are_followed(admin, image_host):
    client = login_client(admin)
    for path in ("/cat.png", "/moved"):
        response = _import(client, admin, image_host + path)
        assert response.status_code == 200 and response.content == PNG
        assert response["Content-Type"] == "image/png" and response["Cache-Control"] == "no-store"


def test_import_refusals(admin, image_host, settings):
    client = login_client(admin)
    cases = {
        image_host + "/page.html": "response is not an image",
        image_host + "/nothing": "remote server responded with HTTP 404",
        image_host + "/loop": "too many redirects",
        "ftp://example.com/x.png": "only http and https urls are allowed",
        "http:///x.png": "invalid url host",
        "http://no-such-host.invalid/x.png": "remote image host could not be resolved",
        "http://testserver/x.png": "remote image host is not allowed",
        "": "invalid url",
    }
    for url, error in cases.items():
        assert _import(client, admin, url).json() == {"error": error}, url
    settings.STGY_MEDIA_IMAGE_BYTE_LIMIT = len(PNG) + 100
    assert _import(client, admin, image_host + "/big.png").json() == {"error": "remote image is too large"}
    # Without the operator's allowance, loopback (and every private network) is refused.
    settings.STGY_MEDIA_IMPORT_ALLOWED_NETWORKS = []
    for url in (image_host + "/cat.png", "http://localhost/x.png", "http://[::1]/x", "http://10.0.0.1/x",
                "http://169.254.169.254/latest/meta-data"):
        assert _import(client, admin, url).json() == {"error": "remote image address is not allowed"}, url


def test_import_is_for_admins_on_their_own_folder(human, admin, image_host):
    refused = _import(login_client(human), human, image_host + "/cat.png")
    assert refused.status_code == 403 and refused.json() == {"error": "admin only"}
    other = _import(login_client(admin), make_user("Other"), image_host + "/cat.png")
    assert other.status_code == 403 and other.json() == {"error": "forbidden"}
