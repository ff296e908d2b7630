"""Shared test machinery: the per-run environment, a real SMTP collector, a real Celery
worker process and the Playwright browser launcher. The fixtures that use them live in
tests/conftest.py; these modules hold the parts with state and clean-up."""
