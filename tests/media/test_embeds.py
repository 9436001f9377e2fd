"""Uploaded images in rendered Markdown, in prompts, and avatars on cards."""

from __future__ import annotations

import pytest

from agents.prompt_text import post_prompt_text
from agents.runs.inputs import context_post
from sns.media.embeds import images_as_alt_text
from sns.models.media import MediaImage
from sns.reads.markdown import render_html, to_plain_text
from sns.web.cards import user_name_html
from tests.conftest import login_client
from tests.factories import make_post, make_user
from tests.media.conftest import make_image
from tests.media.flow import full_flow

pytestmark = pytest.mark.django_db


def test_embedded_upload_renders_from_the_store_with_its_size(human):
    key = full_flow(login_client(human), human, make_image("PNG", size=(320, 200)), "dog.png").json()["key"]
    html = render_html(f"Look: ![my *dog*](/images/{key}){{grid}} ok")
    assert f'src="/storage/stgy-images/{key}"' in html
    assert 'alt="my dog"' in html and 'width="320"' in html and 'height="200"' in html
    assert 'loading="lazy"' in html and "{grid}" not in html
    assert MediaImage.objects.get(key=key).height == 200


def test_other_images_are_lazy_but_not_rewritten():
    html = render_html("![a](https://example.com/a.png) ![b](/images/../../etc/passwd) ![c](javascript:x)")
    assert 'src="https://example.com/a.png"' in html and 'loading="lazy"' in html
    assert 'src="/images/../../etc/passwd"' in html  # not a key of ours: left to 404
    assert 'src="javascript' not in html and "width=" not in html


def test_unknown_upload_key_renders_without_size():
    html = render_html("![x](/images/0000000000000001/masters/797387/deadbeef.jpg)")
    assert 'src="/storage/stgy-images/0000000000000001/masters/797387/deadbeef.jpg"' in html
    assert "width=" not in html


def test_images_become_their_alt_text():
    text = "Dinner ![grilled \\[saba\\] fish](/images/u/masters/1/a.jpg){grid} and ![](/x.png)! [link](https://e.com)"
    assert images_as_alt_text(text) == "Dinner grilled [saba] fish and ! [link](https://e.com)"
    assert images_as_alt_text("no images") == "no images"
    assert to_plain_text("![a cat](/images/x)") == "a cat"


def test_prompts_show_alt_text_not_urls(human, ai_user):
    post = make_post(human, "My lunch ![bento with tamagoyaki](/images/AB/masters/797387/x.jpg)")
    shown = context_post(post, me=ai_user, content_limit=3000, summaries={})
    assert shown["content"] == "My lunch bento with tamagoyaki"
    assert shown["summary"] == ""  # the whole text is shown, so no summary beside it
    # Cut after the image became text: a cut never leaves half a URL in the prompt.
    assert "/images/" not in post_prompt_text(post.content, 4)
    assert post_prompt_text(post.content, 1000) == "My lunch bento with tamagoyaki"


def test_cards_show_the_avatar_icon_or_the_initial(human):
    assert 'class="avatar hue-' in user_name_html(human) and ">A<" in user_name_html(human)
    full_flow(login_client(human), human, make_image("PNG"), "me.png", kind="avatar")
    human.refresh_from_db()
    html = user_name_html(human)
    assert f'src="/storage/stgy-profiles/{human.hex_id}/thumbs/avatar_icon.webp"' in html
    human.avatar = "https://evil.example/x.png"  # set through the plain API field: not ours
    assert "<img" not in user_name_html(human)
    human.refresh_from_db()
    page = login_client(make_user("Zed")).get(f"/users/{human.hex_id}")
    assert page.status_code == 200 and b'class="avatar large" src="/storage/stgy-profiles/' in page.content
