"""``runsite publish``: the built site, committed to a branch of the archive's repository
(``gh-pages``), or pushed to a remote's, as ``ghp-import`` does for mkdocs.

- ``content``: what goes on the branch: the files the build wrote and its leak scan passed,
  read back and checked against the build's manifest, with ``.nojekyll`` and a ``CNAME``;
- ``branch``: the branch itself, through git's plumbing: one commit on top of its history,
  made only when the site's tree changed;
- ``address``: the site's address, recorded in ``mkdocs.yml`` as ``site_url``, where the
  build and every report read it.
"""

from generator.deploy.address import address, record_address
from generator.deploy.branch import Delivered, Pages
from generator.deploy.content import PublishRefused, domain, site_files

__all__ = [
    "Delivered",
    "Pages",
    "PublishRefused",
    "address",
    "domain",
    "record_address",
    "site_files",
]
