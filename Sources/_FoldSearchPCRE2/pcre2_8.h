// System PCRE2 (8-bit code units), for the PCRE2 C shim only. No Swift module
// imports this one: PCRE2's types never cross the shim's boundary.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
