"""One benchmark engine for every workload: the event protocol, the child's runtime, the parent's runner."""
