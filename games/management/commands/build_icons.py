"""Write the app icons (games.cardfaces.app_icon: the card back) to static/icons/: run
after changing the back's drawing; a test fails while they are stale."""

from django.conf import settings
from django.core.management.base import BaseCommand

from games.cardfaces import build_icons


class Command(BaseCommand):
    help = "Draw the web manifest's icons (the card back's Tree of Life) as PNG into static/icons/."

    def handle(self, *args, **options):
        written = build_icons(settings.BASE_DIR / "static" / "icons")
        self.stdout.write(f"Wrote {len(written)} icons to static/icons/.")
