import pytest

from sns import services
from sns.core.errors import Conflict
from tests.factories import make_post


@pytest.mark.django_db
def test_like_counts_and_conflict(human, follower):
    post = make_post(human, "Hello **world**", tags=["Greeting"])
    services.like_add(follower, post.id)
    post.refresh_from_db()
    assert post.like_count == 1
    with pytest.raises(Conflict):
        services.like_add(follower, post.id)
