/* SPDX-License-Identifier: MIT */
#include "tables.h"

#define T1(c) [c] = 1
const uint8_t simdhttp_tchar[256] = {
    T1('!'), T1('#'), T1('$'), T1('%'), T1('&'), T1('\''), T1('*'), T1('+'), T1('-'), T1('.'),
    T1('^'), T1('_'), T1('`'), T1('|'), T1('~'),
    T1('0'), T1('1'), T1('2'), T1('3'), T1('4'), T1('5'), T1('6'), T1('7'), T1('8'), T1('9'),
    T1('A'), T1('B'), T1('C'), T1('D'), T1('E'), T1('F'), T1('G'), T1('H'), T1('I'), T1('J'),
    T1('K'), T1('L'), T1('M'), T1('N'), T1('O'), T1('P'), T1('Q'), T1('R'), T1('S'), T1('T'),
    T1('U'), T1('V'), T1('W'), T1('X'), T1('Y'), T1('Z'),
    T1('a'), T1('b'), T1('c'), T1('d'), T1('e'), T1('f'), T1('g'), T1('h'), T1('i'), T1('j'),
    T1('k'), T1('l'), T1('m'), T1('n'), T1('o'), T1('p'), T1('q'), T1('r'), T1('s'), T1('t'),
    T1('u'), T1('v'), T1('w'), T1('x'), T1('y'), T1('z'),
};

const uint8_t simdhttp_value_stop[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, /* 0x00-0x0f: HTAB (0x09) passes */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x10-0x1f */
    [0x7f] = 1,
};

/* a hex digit's value plus one, 0 for any other byte (chunk sizes, RFC 9112 section 7.1):
 * `simdhttp_hex1[c] - 1u` is the value, above 15 for a non-digit */
#define H(c, v) [c] = (v) + 1
const uint8_t simdhttp_hex1[256] = {
    H('0', 0), H('1', 1), H('2', 2), H('3', 3), H('4', 4), H('5', 5), H('6', 6), H('7', 7),
    H('8', 8), H('9', 9), H('a', 10), H('b', 11), H('c', 12), H('d', 13), H('e', 14), H('f', 15),
    H('A', 10), H('B', 11), H('C', 12), H('D', 13), H('E', 14), H('F', 15),
};

#define SPLAT32(x) {x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x}
/* the nibble bitmaps of tables.h, once per 128-bit lane */
const uint8_t simdhttp_vconst[6][32] __attribute__((aligned(32))) = {
    SPLAT32(0x7f),
    SPLAT32(0x0f),
    {SH_TCHAR_LO_BYTES, SH_TCHAR_LO_BYTES},
    {SH_TCHAR_HI_BYTES, SH_TCHAR_HI_BYTES},
    {SH_VBAD_LO_BYTES, SH_VBAD_LO_BYTES},
    {SH_COOKIE_LO_BYTES, SH_COOKIE_LO_BYTES},
};
