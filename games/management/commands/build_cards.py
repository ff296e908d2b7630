"""Write the card drawings (games.cardfaces) to static/cards/: run after changing them."""

from django.conf import settings
from django.core.management.base import BaseCommand

from games.cardfaces import build


class Command(BaseCommand):
    help = "Draw the 78 card faces and the card back as SVG into static/cards/, one file each and all in sprite.svg."

    def handle(self, *args, **options):
        written = build(settings.BASE_DIR / "static" / "cards")
        self.stdout.write(f"Wrote {len(written) - 1} cards and their sprite to static/cards/.")
