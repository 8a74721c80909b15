"""The scoring service and web fan calculator (``hupai serve``; needs the ``server`` extra)."""
