"""A whole campaign as one archive, and back (docs/backup.md)."""

from .archive import MAX_ARCHIVE_BYTES, BadArchive
from .export import export_campaign
from .restore import import_campaign

__all__ = ["MAX_ARCHIVE_BYTES", "BadArchive", "export_campaign", "import_campaign"]
