"""The Textual application: the App, the palette, help and one module per screen; the only place that imports
textual."""

import os

os.environ.setdefault("TEXTUAL_FPS", "120")
"""Up to 120 frames a second (Textual's default is 60): a change waits for the next frame, and after a
key the second frame of its repaint (a scrollbar resized by the first) waited 17-33 ms at 60. Frames are
drawn only when something changed, so an idle screen costs nothing more (bench/tui_keys.py measures both).
Set before Textual is imported (it reads TEXTUAL_FPS once); a TEXTUAL_FPS the user set is kept."""
