// The benchmark's baseline: an empty program, started exactly like the hook (same flags, config, stdin).
