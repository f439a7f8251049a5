/* The SSE4.2-level path (pshufb tchar lookup; -msse4.2 from mk/simd.mk):
 * the parser core instantiated with this ISA's scanners inlined. */
#include "scan_sse42.h"

#define SH_ISA sse42
#define scan_token sse42_scan_token
#define scan_value sse42_scan_value
#define scan_target sse42_scan_target
#include "core.h"
