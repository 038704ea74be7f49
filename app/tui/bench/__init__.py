"""The Benchmark screen: its form, the live run, the fio comparison and the verdict."""
