#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sefirot_site.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:
        # A bad setting is the operator's to fix: say which and why, without a traceback.
        sys.stderr.write(f"Configuration error: {error}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
