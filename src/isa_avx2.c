/* The AVX2 path (-mavx2 from mk/simd.mk; run only if CPUID and XGETBV say so):
 * the parser core instantiated with this ISA's scanners inlined. */
#include "scan_avx2.h"

#define SH_ISA avx2
#define scan_token avx2_scan_token
#define scan_value avx2_scan_value
#define scan_target avx2_scan_target
#include "core.h"
