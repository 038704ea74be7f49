"""How this process ends: a vanished terminal, the watchdog and the emergency cleanups."""
