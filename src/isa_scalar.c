/* SPDX-License-Identifier: MIT */
/* The portable path: the parser core with the reference scanners. */
#include "scan_scalar.h"

#define SH_ISA scalar
#define scan_token scalar_scan_token
#define scan_value scalar_scan_value
#define scan_target scalar_scan_target
#include "core.h"
