/* The NEON path (aarch64 only; NEON is baseline there):
 * the parser core instantiated with this ISA's scanners inlined. */
#include "scan_neon.h"

#define SH_ISA neon
#define scan_token neon_scan_token
#define scan_value neon_scan_value
#define scan_target neon_scan_target
#include "core.h"
