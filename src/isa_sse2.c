/* The SSE2 path (the x86-64 baseline; no extra flags):
 * the parser core instantiated with this ISA's scanners inlined. */
#include "scan_sse2.h"

#define SH_ISA sse2
#define scan_token sse2_scan_token
#define scan_value sse2_scan_value
#define scan_target sse2_scan_target
#include "core.h"
