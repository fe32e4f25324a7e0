"""Everything about the package is in pyproject.toml.  This file only ships
the top-level folders config/, mail_templates/ and migrations/ inside the
wheel, as the packages server._config, server._mail_templates and
server._migrations, where an installed server finds them (server/settings.py)."""
from setuptools import find_packages, setup

SHIPPED = {"server._config": "config", "server._mail_templates": "mail_templates",
           "server._migrations": "migrations"}

setup(packages=find_packages(include=["engine*", "server*"]) + list(SHIPPED),
      package_dir=SHIPPED)
