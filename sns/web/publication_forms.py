"""The form of a user's public-site settings. Like the other page forms it only
collects input; sns.services.publication.pub_config_update owns every rule."""

from __future__ import annotations

from django import forms

from .publication import THEMES


class PubConfigForm(forms.Form):
    site_name = forms.CharField(label="Site name", required=False, strip=False)
    subtitle = forms.CharField(label="Subtitle", required=False, strip=False)
    author = forms.CharField(label="Author", required=False, strip=False)
    introduction = forms.CharField(
        label="Introduction (Markdown)",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 5}),
    )
    design_theme = forms.ChoiceField(
        label="Design theme", required=False, choices=[(t, t) for t in THEMES]
    )
    show_service_header = forms.BooleanField(label="Show the service header", required=False)
    show_site_name = forms.BooleanField(label="Show the site name on top", required=False)
    show_pagenation = forms.BooleanField(label="Show the post pagination", required=False)
    show_side_profile = forms.BooleanField(
        label="Show the site profile in the sidebar", required=False
    )
    show_side_recent = forms.CharField(
        label="Recent posts in the sidebar (at most 20; 0 or less hides them)",
        widget=forms.NumberInput(attrs={"step": 1}),
    )
    show_side_popular = forms.CharField(
        label="Popular entries in the sidebar (at most 20; 0 or less hides them)",
        widget=forms.NumberInput(attrs={"step": 1}),
    )

    @staticmethod
    def initial_from(config) -> dict:
        return {
            "site_name": config.site_name,
            "subtitle": config.subtitle,
            "author": config.author,
            "introduction": config.introduction,
            "design_theme": config.design_theme or "default",
            "show_service_header": config.show_service_header,
            "show_site_name": config.show_site_name,
            "show_pagenation": config.show_pagenation,
            "show_side_profile": config.show_side_profile,
            "show_side_recent": config.show_side_recent,
            "show_side_popular": config.show_side_popular,
        }

    def changes(self) -> dict:
        """The body pub_config_update takes, in the API's names."""
        data = self.cleaned_data
        theme = data.get("design_theme") or "default"
        return {
            "siteName": data["site_name"],
            "subtitle": data["subtitle"],
            "author": data["author"],
            "introduction": data["introduction"],
            "designTheme": "" if theme == "default" else theme,
            "showServiceHeader": data["show_service_header"],
            "showSiteName": data["show_site_name"],
            "showPagenation": data["show_pagenation"],
            "showSideProfile": data["show_side_profile"],
            "showSideRecent": data["show_side_recent"],
            "showSidePopular": data["show_side_popular"],
        }
