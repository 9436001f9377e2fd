"""Images and avatars: storage backends, the local upload signer, Pillow checks
(docs/media.md). The rules (who may upload what, quotas) are sns/services/media.py."""
