"""Drop-in replacements for other mahjong libraries' Python APIs.

``from hupai.compat import MahjongGB`` replaces ``import MahjongGB`` (PyMahjongGB 1.4.0, the Botzone
国标 judge's library).
"""
