"""Link previews: the cards under links in posts (docs/api.md, "Link previews")."""
