"""OpenAPI annotations shared by the API views (drf-spectacular).

Only what a client needs to find its way: paths, query parameters, request bodies
and the rough shape of answers. The field-level contract is spec/api.md.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse


class SessionCookieScheme(OpenApiAuthenticationExtension):
    target_class = "sns.api.authentication.SessionCookieAuthentication"
    name = "sessionCookie"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "cookie", "name": "session_id"}


def query(name: str, kind=OpenApiTypes.STR, description: str = "") -> OpenApiParameter:
    return OpenApiParameter(name, kind, OpenApiParameter.QUERY, description=description)


PAGE = [
    query("offset", OpenApiTypes.INT),
    query("limit", OpenApiTypes.INT),
    query("order", description="desc (default) or asc"),
]
FOCUS = query("focusUserId", description="hex id of the user the relation flags are about")
AFTER = query("after", description="hex id cursor; needs offset=0")

OBJECT = OpenApiTypes.OBJECT
LIST = OpenApiResponse(response={"type": "array", "items": {"type": "object"}})
OK = OpenApiResponse(response=OpenApiTypes.OBJECT, description='{"result": "ok"}')
NO_CONTENT = OpenApiResponse(description="no content")
