/* The AVX-512BW path (-mavx512bw -mavx512vl from mk/simd.mk; run only if CPUID and XGETBV say so):
 * the parser core instantiated with this ISA's scanners inlined. */
#include "scan_avx512.h"

#define SH_ISA avx512
#define scan_token avx512_scan_token
#define scan_value avx512_scan_value
#define scan_target avx512_scan_target
#include "core.h"
