// System ICU, for the C shim only. No Swift module may import this one:
// Foundation ships its own ICU with the same C type names.
#include <unicode/uchar.h>
#include <unicode/ucol.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/usearch.h>
#include <unicode/uversion.h>
