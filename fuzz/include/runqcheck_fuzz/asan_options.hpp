// runqcheck_fuzz/asan_options.hpp — include in exactly one file of a fuzz
// target. Relacy replaces the global operator new/delete with malloc/free
// (its simulation heap); memory the standard library allocates through
// ASan's operator new is then released through Relacy's delete (free), a
// mismatch ASan would report on every run, while both sides are the same
// heap underneath. Everything else ASan checks stays on.
#pragma once

extern "C" const char* __asan_default_options() { return "alloc_dealloc_mismatch=0"; }
