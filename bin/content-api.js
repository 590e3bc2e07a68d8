#!/bin/sh
':' //; [ -n "${MALLOC_MMAP_THRESHOLD_+set}" ] || export MALLOC_MMAP_THRESHOLD_=262144
':' //; exec node "$0" "$@"
/*
 * The content-api command, run by the shell first (npm links it as it is): glibc keeps the memory
 * of large response bodies in its per-thread heaps once they are freed unless malloc's mmap
 * threshold is fixed, and only the environment can fix it, before the process starts
 * (docs/operations.md). The two lines above give it that setting, unless the environment has its
 * own, and `exec` replaces the shell with Node on this same file, which reads them as strings and
 * comments: no process stays behind.
 */
import { runCli } from '../dist/plugin/cli.js';

runCli();
