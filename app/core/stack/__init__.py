"""The device forest as records: the lsblk-style walk and the `devices --json` document."""
